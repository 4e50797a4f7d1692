import { Alert, Button, Stack, Text, TextInput, Title } from "@mantine/core";
import { useEffect, useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import { AuthFooter } from "./AuthFooter";
import { useAuthCalls } from "./api";

/** `/forgot-password`: asks for a reset mail (`POST /auth/forgot-password`, which always answers 200). */
export default function ForgotPasswordPage() {
  const auth = useAuthCalls();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = "Reset your password · BurnBox";
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await auth.forgotPassword(email);
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Title order={1} size="h3">
        Reset your password
      </Title>
      {sent ? (
        <Alert role="status" color="green" variant="light" title="Check your mail">
          If an account uses {email}, a link to choose a new password is on its way. It works once, for one hour.
        </Alert>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <Text size="sm" c="dimmed">
              Enter your account&apos;s email address and we will mail you a link to choose a new password.
            </Text>
            <ApiErrorAlert error={error} />
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Send the link
            </Button>
          </Stack>
        </form>
      )}
      <AuthFooter links={[{ to: "/login", label: "Back to sign in" }]} />
    </Stack>
  );
}
