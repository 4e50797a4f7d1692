import { Alert, Anchor, Button, PasswordInput, Stack, Title } from "@mantine/core";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { useSession, useSessionStore } from "../../api/session";
import { ApiErrorAlert } from "../../components";
import { AuthFooter } from "./AuthFooter";
import { describePolicy } from "../../lib/password-policy";
import { useSsoStatus } from "../../api/auth";
import { useAuthCalls } from "./api";

/** `/reset-password?token=` (the reset mail's link): a new password; every session ends (`POST /auth/reset-password`). */
export default function ResetPasswordPage() {
  const auth = useAuthCalls();
  const store = useSessionStore();
  const session = useSession();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const policy = useSsoStatus().data?.password_policy;
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = "Choose a new password · BurnBox";
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) {
      setError(new Error("The two passwords differ."));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await auth.resetPassword(token, password);
      // the reset ended every session, this browser's too
      if (session.status === "signed-in") store.forget();
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Title order={1} size="h3">
        Choose a new password
      </Title>
      {!token ? (
        <Alert role="alert" color="red" variant="light">
          This link holds no reset token. Ask for a new link on the{" "}
          <Anchor component={Link} to="/forgot-password">
            reset page
          </Anchor>
          .
        </Alert>
      ) : done ? (
        <Alert role="status" color="green" variant="light" title="Password changed">
          Your password is changed and every session was signed out.{" "}
          <Anchor component={Link} to="/login">
            Sign in
          </Anchor>{" "}
          with the new one.
        </Alert>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <ApiErrorAlert error={error} />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              description={describePolicy(policy)}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <PasswordInput
              label="Repeat the new password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Stack>
        </form>
      )}
      {!done && <AuthFooter links={[{ to: "/login", label: "Back to sign in" }]} />}
    </Stack>
  );
}
