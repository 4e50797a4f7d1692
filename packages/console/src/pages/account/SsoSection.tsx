import { Button, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { accountKeys } from "../../api/keys";
import { ApiErrorAlert, Time } from "../../components";
import { useSsoStatus } from "../../api/auth";
import { Section } from "./Section";
import { useSsoIdentities, useSsoLinkUrl, useUnlinkSsoIdentity } from "./api";

/**
 * Linked identities (`GET /auth/me/sso`), unlink (`DELETE /auth/me/sso/:provider`, refused when it is
 * the last way to sign in), and link another: a full-page visit to `GET /auth/sso/:provider?intent=link&ticket=`
 * with a ticket from `POST /ws/ticket`.
 */
export function SsoSection() {
  const ssoLinkUrl = useSsoLinkUrl();
  const status = useSsoStatus();
  const identities = useSsoIdentities();
  const unlink = useUnlinkSsoIdentity({
    invalidates: [accountKeys.ssoIdentities()],
    onSuccess: () => notifications.show({ message: "Identity unlinked" }),
  });
  const [linkError, setLinkError] = useState<unknown>(null);
  const linked = identities.data?.data ?? [];
  const unlinkedProviders = (status.data?.providers ?? []).filter((p) => !linked.some((i) => i.provider === p.name));
  if (linked.length === 0 && unlinkedProviders.length === 0) return null;

  const link = async (provider: string) => {
    setLinkError(null);
    try {
      window.location.assign(await ssoLinkUrl(provider));
    } catch (e) {
      setLinkError(e);
    }
  };

  return (
    <Section id="sso" title="Single sign-on" description="Identities you can sign in with.">
      <ApiErrorAlert error={identities.error ?? unlink.error ?? linkError} />
      <Stack gap="sm">
        {linked.map((i) => (
          <Group key={i.id} justify="space-between" wrap="wrap">
            <div>
              <Text size="sm" fw={500}>
                {status.data?.providers.find((p) => p.name === i.provider)?.label ?? i.provider}
              </Text>
              <Text size="xs" c="dimmed">
                {i.email} · linked <Time value={i.linked_at} />
              </Text>
            </div>
            <Button
              size="xs"
              variant="light"
              color="red"
              aria-label={`Unlink ${i.provider}`}
              loading={unlink.isPending}
              onClick={() => unlink.mutate(i.provider)}
            >
              Unlink
            </Button>
          </Group>
        ))}
        {unlinkedProviders.map((p) => (
          <Group key={p.name} justify="space-between">
            <Text size="sm">{p.label}</Text>
            <Button size="xs" variant="default" onClick={() => void link(p.name)}>
              Link {p.label}
            </Button>
          </Group>
        ))}
      </Stack>
    </Section>
  );
}
