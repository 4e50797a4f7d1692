import { Alert, Button, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ForgotPasswordBody } from "@burnbox/contracts/src/identity/auth.schemas";
import { ApiErrorAlert } from "../../components";
import { EmailField } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { AuthFooter } from "./AuthFooter";
import { useAuthCalls } from "./api";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useAuthSubmit } from "./useAuthSubmit";

/** `/forgot-password`: asks for a reset mail (`POST /auth/forgot-password`, which always answers 200). */
export default function ForgotPasswordPage() {
  const auth = useAuthCalls();
  const form = useContractForm(ForgotPasswordBody, { email: "" });
  const [sent, setSent] = useState(false);
  useDocumentTitle("Reset your password");

  const { run, busy, error } = useAuthSubmit(async (email: string) => {
    await auth.forgotPassword(email);
    setSent(true);
  });

  return (
    <Stack>
      <Title order={1} size="h3">
        Reset your password
      </Title>
      {sent ? (
        <Alert role="status" color="green" variant="light" title="Check your mail">
          If an account uses {form.values.email}, a link to choose a new password is on its way. It works once, for one hour.
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((v) => void run(v.email))}>
          <Stack>
            <Text size="sm" c="dimmed">
              Enter your account&apos;s email address and we will mail you a link to choose a new password.
            </Text>
            <ApiErrorAlert error={error} />
            <EmailField {...form.getInputProps("email")} />
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
