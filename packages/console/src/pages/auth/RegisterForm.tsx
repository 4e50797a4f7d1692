import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import type { AuthResult } from "@burnbox/sdk";
import { ApiErrorAlert } from "../../components";
import { describePolicy } from "../../lib/password-policy";
import { useSsoStatus } from "../../api/auth";
import { useAuthCalls } from "./api";

/** `POST /auth/register` (cookie mode); with an invite token the email is the invite's and the org is joined. */
export function RegisterForm({
  inviteToken,
  fixedEmail,
  onRegistered,
}: {
  inviteToken?: string;
  fixedEmail?: string;
  onRegistered: (r: AuthResult) => void;
}) {
  const auth = useAuthCalls();
  const policy = useSsoStatus().data?.password_policy;
  const [displayName, setDisplayName] = useState("");
  const [email, setEmail] = useState(fixedEmail ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        email: fixedEmail ?? email,
        password,
        display_name: displayName,
        use_cookie: true,
        ...(inviteToken ? { invite_token: inviteToken } : {}),
      };
      onRegistered(await auth.register(body));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack>
        <ApiErrorAlert error={error} />
        <TextInput label="Name" autoComplete="name" required value={displayName} onChange={(e) => setDisplayName(e.currentTarget.value)} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={fixedEmail ?? email}
          readOnly={fixedEmail !== undefined}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          required
          description={describePolicy(policy)}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Button type="submit" loading={busy}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
