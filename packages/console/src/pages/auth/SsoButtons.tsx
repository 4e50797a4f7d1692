import { Button, Divider, Stack, Text } from "@mantine/core";
import { IconKey } from "@tabler/icons-react";
import { useSsoStatus } from "../../api/auth";
import { useSsoStartUrl } from "./api";
import { rememberSsoNext } from "./sso-next";

/** One button per enabled SSO provider: a full-page visit to `GET /auth/sso/:provider`. */
export function SsoButtons({ next }: { next?: string }) {
  const ssoStartUrl = useSsoStartUrl();
  const status = useSsoStatus();
  const providers = status.data?.providers ?? [];
  if (providers.length === 0) return null;
  // where to go after the SSO round trip: the login page gets it back as ?next= only through storage
  const remember = () => rememberSsoNext(next);
  return (
    <Stack gap="xs">
      <Divider label="or" labelPosition="center" />
      {providers.map((p) => (
        <Button
          key={p.name}
          component="a"
          href={ssoStartUrl(p.name)}
          variant="default"
          leftSection={<IconKey size={16} />}
          onClick={remember}
        >
          Continue with {p.label}
        </Button>
      ))}
      {status.data?.enforce_sso && (
        <Text size="xs" c="dimmed">
          Your organisation may require single sign-on.
        </Text>
      )}
    </Stack>
  );
}
