import { Button, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { FormErrors } from "@mantine/form";
import { UpdateOrgSettingsBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { workspaceKeys } from "../../api/keys";
import { ApiErrorAlert } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { useUpdateOrgSettings, type OrgSettings } from "./api";
import { orgsKeys } from "./keys";

/** The platform's default of `outbound.max_per_hour` (extensions section 10), a setting of the inbox service, not of the org. */
const MAX_PER_HOUR_DEFAULT = 100;

const linesOf = (text: string): string[] =>
  text
    .split(/[\n,;]+/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
const bodyOf = (v: { allowed: string }) => ({ outbound: { allowed_recipients: linesOf(v.allowed) } });

/** The first contract error of the list or one of its entries, named by the entry. */
function allowedError(errors: FormErrors, allowed: string): string | undefined {
  const key = "outbound.allowed_recipients";
  const found = Object.entries(errors).find(([k]) => k === key || k.startsWith(`${key}.`) || k === "outbound");
  if (!found) return undefined;
  const i = Number(found[0].slice(key.length + 1));
  const entry = Number.isInteger(i) && found[0].length > key.length ? linesOf(allowed)[i] : undefined;
  const text = typeof found[1] === "string" ? found[1] : "is not valid";
  return entry !== undefined ? `${entry}: ${text}` : text;
}

/**
 * "Outbound mail" of the org settings (`PATCH /orgs/{id}/settings {outbound}`, extensions section 10):
 * whom release, reply and send may reach besides this BurnBox's own inboxes.
 */
export function OutboundSection({ orgId, settings, canManage }: { orgId: string; settings: OrgSettings; canManage: boolean }) {
  const form = useContractForm(UpdateOrgSettingsBody, { allowed: settings.outbound.allowed_recipients.join("\n") }, { toBody: bodyOf });
  const save = useUpdateOrgSettings(
    { orgId },
    {
      invalidates: [orgsKeys.org(orgId), workspaceKeys.orgs()],
      onSuccess: () => notifications.show({ message: "Outbound settings saved", closeButtonProps: { "aria-label": "Dismiss" } }),
    },
  );
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate({ ...settings, ...bodyOf(v) }))} noValidate aria-labelledby="outbound-settings-title">
      <Stack maw={720}>
        <Title order={2} size="h4" id="outbound-settings-title">
          Outbound mail
        </Title>
        <Text size="sm" c="dimmed">
          Release, reply and send from this organization&apos;s inboxes always reach this BurnBox&apos;s own inboxes. Any other recipient
          must match a line here: an address (<code>qa@example.com</code>), a domain (<code>@example.com</code>) or its subdomains (
          <code>*.example.com</code>); others are refused and nothing is sent.
        </Text>
        <Textarea
          label="Allowed recipients"
          description="One per line; empty allows none outside BurnBox"
          autosize
          minRows={3}
          maxRows={12}
          readOnly={!canManage}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          {...form.getInputProps("allowed")}
          error={allowedError(form.errors, form.values.allowed)}
        />
        <Text size="sm" data-testid="outbound-max-per-hour">
          Each team may send up to the platform&apos;s hourly limit (<code>outbound.max_per_hour</code>, {MAX_PER_HOUR_DEFAULT} by default,
          set by the platform&apos;s administrator); past it a send is refused with “Too many requests” until the hour moves on.
        </Text>
        <ApiErrorAlert error={save.error} />
        {canManage && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save outbound settings
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
