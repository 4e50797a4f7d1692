import { Button, Group, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ChangePasswordBody } from "@burnbox/contracts/src/identity/account.schemas";
import { accountKeys } from "../../api/keys";
import { ApiErrorAlert } from "../../components";
import { CurrentPasswordField, NewPasswordField } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { Section } from "./Section";
import { useChangePassword } from "./api";

/** `PUT /auth/me/password`: the other sessions end, this one stays. */
export function PasswordSection() {
  const form = useContractForm(ChangePasswordBody, { current_password: "", new_password: "" });
  const change = useChangePassword({
    invalidates: [accountKeys.all],
    onSuccess: () => {
      form.reset();
      notifications.show({ color: "green", message: "Password changed; your other sessions were signed out." });
    },
  });
  return (
    <Section id="password" title="Password" description="Changing it signs out your other sessions.">
      <form onSubmit={form.onSubmit((v) => change.mutate(v))}>
        <Stack>
          <ApiErrorAlert error={change.error} />
          <CurrentPasswordField label="Current password" {...form.getInputProps("current_password")} />
          <NewPasswordField label="New password" {...form.getInputProps("new_password")} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
