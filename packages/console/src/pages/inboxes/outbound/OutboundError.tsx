import { Text } from "@mantine/core";
import { BurnBoxError } from "@burnbox/sdk";
import { ApiErrorAlert } from "../../../components";
import { outboundErrorTitle } from "./outbound-form";

/** A refused release, reply or send: the API's message under a heading that says what went wrong, and what to do about it. */
export function OutboundError({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof BurnBoxError ? error : undefined;
  return (
    <div data-testid="outbound-error">
      <ApiErrorAlert error={error} title={outboundErrorTitle(error)} />
      {e?.status === 403 && /^recipient not allowed/i.test(e.message) ? (
        <Text size="xs" c="dimmed" mt={4}>
          Nothing was sent. Mail may go to this BurnBox&apos;s own inboxes and to the addresses and domains the organization allows (its
          settings, “Outbound mail”).
        </Text>
      ) : e?.status === 429 ? (
        <Text size="xs" c="dimmed" mt={4}>
          Nothing was sent. The team has sent as many messages as it may this hour.
        </Text>
      ) : null}
    </div>
  );
}
