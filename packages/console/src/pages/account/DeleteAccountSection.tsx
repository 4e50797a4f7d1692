import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useNavigate } from "react-router";
import { DeleteMeBody } from "@burnbox/contracts/src/identity/account.schemas";
import { useSessionStore, useUser } from "../../api/session";
import { ApiErrorAlert, DialogActions } from "../../components";
import { CurrentPasswordField } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { Section } from "./Section";
import { useDeleteAccount } from "./api";

/** `DELETE /auth/me {password}`: the account and every session end. */
export function DeleteAccountSection() {
  const user = useUser();
  const store = useSessionStore();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const form = useContractForm(DeleteMeBody, { password: "" });
  const remove = useDeleteAccount({
    onSuccess: () => {
      store.forget();
      void navigate("/login", { replace: true });
    },
  });
  return (
    <Section id="delete" title="Delete account" description="Your account and its sessions are removed. This cannot be undone.">
      <Group>
        <Button color="red" variant="outline" onClick={open}>
          Delete my account
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Delete your account?">
        <form onSubmit={form.onSubmit((v) => remove.mutate(v))}>
          <Stack>
            <Text size="sm">{user.email} will be deleted and signed out everywhere. Enter your password to confirm.</Text>
            <ApiErrorAlert error={remove.error} />
            <CurrentPasswordField {...form.getInputProps("password")} data-autofocus />
            <DialogActions confirmLabel="Delete account" color="red.9" loading={remove.isPending} onCancel={close} />
          </Stack>
        </form>
      </Modal>
    </Section>
  );
}
