import { Anchor, Button, Divider, Stack, Text } from "@mantine/core";
import { IconKey } from "@tabler/icons-react";
import { Fragment, useCallback } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { AuthResult, components } from "@burnbox/sdk";
import { accountKeys } from "../../api/keys";
import { useApi, useApiQuery } from "../../api/query";
import { useSessionStore } from "../../app/session";
import { safeNext } from "./next";

export type PasswordPolicy = components["schemas"]["PasswordPolicy"];
export type SessionEntry = components["schemas"]["SessionEntry"];
export type SessionLimitConflict = components["schemas"]["SessionLimitConflict"];

/** SSO providers and the password policy (`GET /auth/sso-status`, public). */
export function useSsoStatus() {
  return useApiQuery(accountKeys.ssoStatus(), (bb, signal) => bb.api.GET("/auth/sso-status", { signal }), { staleTime: 60_000 });
}

export { safeNext } from "./next";

/** After any sign-in: remember the session, then go where the user was headed (`?next=`). */
export function useFinishSignIn() {
  const store = useSessionStore();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return useCallback(
    (result: AuthResult, to?: string) => {
      store.signedIn(result);
      void navigate(to ?? safeNext(params.get("next")), { replace: true });
    },
    [store, navigate, params],
  );
}

/** The rules the API applies to a new password, in words. */
export function describePolicy(p: PasswordPolicy | undefined): string | undefined {
  if (!p) return undefined;
  const needs = [
    p.require_lowercase && "a lowercase letter",
    p.require_uppercase && "an uppercase letter",
    p.require_digit && "a digit",
    p.require_symbol && "a symbol",
  ].filter(Boolean);
  return `At least ${p.min_length} characters${needs.length ? `, with ${needs.join(", ")}` : ""}.`;
}

/** One button per enabled SSO provider: a full-page visit to `GET /auth/sso/:provider`. */
export function SsoButtons({ next }: { next?: string }) {
  const bb = useApi();
  const status = useSsoStatus();
  const providers = status.data?.providers ?? [];
  if (providers.length === 0) return null;
  // where to go after the SSO round trip: the login page gets it back as ?next= only through storage
  const remember = () => {
    if (next && next !== "/") sessionStorage.setItem("burnbox.sso-next", next);
  };
  return (
    <Stack gap="xs">
      <Divider label="or" labelPosition="center" />
      {providers.map((p) => (
        <Button
          key={p.name}
          component="a"
          href={`${bb.baseUrl}/auth/sso/${encodeURIComponent(p.name)}`}
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

/** `path`, keeping where the user was headed (`?next=`) when there is such a place. */
export const withNext = (path: string, next: string | null | undefined): string =>
  next ? `${path}?next=${encodeURIComponent(next)}` : path;

/** The links under a sign-in page's form: small, centred, apart by a dot, after an optional lead-in. */
export function AuthFooter({ lead, links }: { lead?: string; links: readonly { to: string; label: string }[] }) {
  return (
    <Text size="sm" ta="center">
      {lead ? `${lead} ` : null}
      {links.map((l, i) => (
        <Fragment key={l.to}>
          {i > 0 ? " · " : null}
          <Anchor component={Link} to={l.to}>
            {l.label}
          </Anchor>
        </Fragment>
      ))}
    </Text>
  );
}

/** The page an SSO login was started from (kept across the provider's redirect), read once. */
export function takeSsoNext(): string | null {
  const v = sessionStorage.getItem("burnbox.sso-next");
  sessionStorage.removeItem("burnbox.sso-next");
  return v;
}

/** Browser names from a user agent, for the sessions lists. */
export function describeAgent(ua: string): string {
  if (!ua) return "Unknown device";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : ua.split(/[ /]/)[0] || "Unknown";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Mac OS X/.test(ua)
      ? "macOS"
      : /Android/.test(ua)
        ? "Android"
        : /iPhone|iPad/.test(ua)
          ? "iOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}
