import { Alert, Anchor, Button, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { ResetPasswordBody } from "@burnbox/contracts/src/identity/auth.schemas";
import { useSession, useSessionStore } from "../../api/session";
import { ApiErrorAlert } from "../../components";
import { NewPasswordField, samePassword } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { AuthFooter } from "./AuthFooter";
import { useAuthCalls } from "./api";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useAuthSubmit } from "./useAuthSubmit";

/** `/reset-password?token=` (the reset mail's link): a new password; every session ends (`POST /auth/reset-password`). */
export default function ResetPasswordPage() {
  const auth = useAuthCalls();
  const store = useSessionStore();
  const session = useSession();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useContractForm(
    ResetPasswordBody,
    { new_password: "", confirm: "" },
    { toBody: (v) => ({ token, new_password: v.new_password }), rules: (v) => ({ confirm: samePassword(v.new_password, v.confirm) }) },
  );
  const [done, setDone] = useState(false);
  useDocumentTitle("Choose a new password");

  const { run, busy, error } = useAuthSubmit(async (password: string) => {
    await auth.resetPassword(token, password);
    // the reset ended every session, this browser's too
    if (session.status === "signed-in") store.forget();
    setDone(true);
  });

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
        <form onSubmit={form.onSubmit((v) => void run(v.new_password))}>
          <Stack>
            <ApiErrorAlert error={error} />
            <NewPasswordField label="New password" {...form.getInputProps("new_password")} />
            <NewPasswordField label="Repeat the new password" repeat {...form.getInputProps("confirm")} />
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
