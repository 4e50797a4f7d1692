import { Alert, Button, Center, Loader, Stack, Text, Title } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { BurnBoxError } from "@burnbox/sdk";
import { useSession } from "../../api/session";
import { ApiErrorAlert } from "../../components";
import { CurrentPasswordField, EmailField } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { lazySchema } from "../../lib/lazy-schema";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useAuthSubmit } from "./useAuthSubmit";
import { conflictOf, SessionConflict, type Conflict } from "./SessionConflict";
import { AuthFooter, withNext } from "./AuthFooter";
import { safeNext } from "../../lib/next";
import { SsoButtons } from "./SsoButtons";
import { takeSsoNext } from "./sso-next";
import { useFinishSignIn } from "../../api/auth";
import { type SessionLimitConflict, useAuthCalls } from "./api";

/** What the SSO callback's `#error=<code>` means, in words. */
const SSO_ERRORS: Record<string, string> = {
  access_denied: "The sign-in was cancelled at the identity provider.",
  sso_failed: "Single sign-on failed. Please try again.",
  email_not_verified: "The identity provider did not confirm your email address.",
  not_provisioned: "There is no BurnBox account for this identity, and none may be created for it. Ask your administrator for an invite.",
  provider_unavailable: "The identity provider could not be reached. Please try again later.",
  already_linked: "That identity is already linked to another BurnBox account.",
  link_failed: "The identity could not be linked to your account.",
  link_required:
    "A BurnBox account with this email address already exists. Sign in with your password, then link the identity provider from your account page.",
  other_browser: "This sign-in was started in another browser, or this browser did not keep its cookie. Please start it again here.",
  link_session_required:
    "Linking was not finished in the browser where you are signed in as the account that started it. Sign in, then link the identity provider again from your account page.",
};

// the sign-in page is a first page: zod comes with the schema, after the page has painted
const loginBody = lazySchema(() => import("@burnbox/contracts/src/identity/auth.schemas").then((m) => m.LoginBody));

/**
 * `/login`: password login, the SSO buttons, and the SSO callback's landings: `?sso_code=` (exchanged
 * for a session), `#session_conflict=true&pending_token=…&limit=…` and `#error=<code>`.
 */
export default function LoginPage() {
  const auth = useAuthCalls();
  const session = useSession();
  const finish = useFinishSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const fragment = new URLSearchParams(location.hash.slice(1));
  const ssoCode = params.get("sso_code");
  const ssoError = fragment.get("error");
  const pendingFromSso = fragment.get("session_conflict") === "true" ? fragment.get("pending_token") : null;

  const form = useContractForm(loginBody.schema, { email: "", password: "" });
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [exchanging, setExchanging] = useState(ssoCode !== null || pendingFromSso !== null);
  const started = useRef(false);
  const { run, busy, error, setError } = useAuthSubmit(async ({ email, password }: { email: string; password: string }) => {
    try {
      finish(await auth.login(email, password));
    } catch (err) {
      if (err instanceof BurnBoxError && err.code === "session_limit") setConflict(conflictOf(err.body as SessionLimitConflict));
      else throw err;
    }
  });

  useDocumentTitle("Sign in");
  useEffect(() => void loginBody.ready(), []);

  // the SSO callback's landings: each code or pending token is used once (refs survive StrictMode's second run)
  useEffect(() => {
    if (started.current) return;
    if (ssoCode) {
      started.current = true;
      auth
        .exchangeSso(ssoCode)
        .then((r) => finish(r, safeNext(takeSsoNext())))
        .catch((e: unknown) => {
          setError(e);
          setExchanging(false);
          void navigate("/login", { replace: true });
        });
    } else if (pendingFromSso) {
      started.current = true;
      auth
        .pendingSessions(pendingFromSso)
        .then((p) => setConflict({ pendingToken: pendingFromSso, sessions: p.sessions, limit: p.limit }))
        .catch((e: unknown) => setError(e))
        .finally(() => setExchanging(false));
    }
  }, [auth, ssoCode, pendingFromSso, finish, navigate]);

  // a signed-in user sent here with an SSO error (a failed link, say) reads it before going on
  if (session.status === "signed-in" && !ssoCode && !conflict && !ssoError) return <Navigate to={safeNext(params.get("next"))} replace />;

  if (exchanging)
    return (
      <Center py="lg">
        <Stack align="center">
          <Loader role="status" aria-label="Signing in" />
          <Text>Signing you in…</Text>
        </Stack>
      </Center>
    );

  if (conflict)
    return (
      <SessionConflict
        conflict={conflict}
        onSignedIn={(r) => finish(r, conflict && pendingFromSso ? safeNext(takeSsoNext()) : undefined)}
        onCancel={() => {
          setConflict(null);
          void navigate("/login", { replace: true });
        }}
      />
    );

  const next = params.get("next");
  return (
    <Stack>
      <Title order={1} size="h3">
        Sign in to BurnBox
      </Title>
      {session.status === "anonymous" && session.reason === "expired" && (
        <Alert color="yellow" variant="light">
          Your session ended. Please sign in again.
        </Alert>
      )}
      {ssoError && (
        <Alert role="alert" color="red" variant="light" title="Single sign-on failed">
          {SSO_ERRORS[ssoError] ?? `Single sign-on failed (${ssoError}).`}
        </Alert>
      )}
      <ApiErrorAlert error={error} />
      <form onSubmit={loginBody.submit(form.onSubmit((v) => void run(v)))}>
        <Stack>
          <EmailField {...form.getInputProps("email")} />
          <CurrentPasswordField {...form.getInputProps("password")} />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
      <SsoButtons next={safeNext(next)} />
      <AuthFooter
        links={[
          { to: "/forgot-password", label: "Forgot your password?" },
          { to: withNext("/register", next), label: "Create an account" },
        ]}
      />
    </Stack>
  );
}
