import { Button, Stack, TextInput } from "@mantine/core";
import type { AuthResult } from "@burnbox/sdk";
import { RegisterBody } from "@burnbox/contracts/src/identity/auth.schemas";
import { ApiErrorAlert } from "../../components";
import { EmailField, NewPasswordField } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { useAuthCalls } from "./api";
import { useAuthSubmit } from "./useAuthSubmit";

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
  const bodyOf = (v: { display_name: string; email: string; password: string }) => ({
    email: fixedEmail ?? v.email,
    password: v.password,
    display_name: v.display_name,
    use_cookie: true,
    ...(inviteToken ? { invite_token: inviteToken } : {}),
  });
  const form = useContractForm(RegisterBody, { display_name: "", email: fixedEmail ?? "", password: "" }, { toBody: bodyOf });

  const { run, busy, error } = useAuthSubmit(async (values: Parameters<typeof bodyOf>[0]) =>
    onRegistered(await auth.register(bodyOf(values))),
  );

  return (
    <form onSubmit={form.onSubmit((v) => void run(v))}>
      <Stack>
        <ApiErrorAlert error={error} />
        <TextInput label="Name" autoComplete="name" required {...form.getInputProps("display_name")} />
        <EmailField {...form.getInputProps("email")} readOnly={fixedEmail !== undefined} />
        <NewPasswordField {...form.getInputProps("password")} />
        <Button type="submit" loading={busy}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
