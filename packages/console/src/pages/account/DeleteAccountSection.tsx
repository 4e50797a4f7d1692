import { Button, Group, Modal, PasswordInput, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useSessionStore, useUser } from "../../api/session";
import { ApiErrorAlert, DialogActions } from "../../components";
import { Section } from "./Section";
import { useDeleteAccount } from "./api";

/** `DELETE /auth/me {password}`: the account and every session end. */
export function DeleteAccountSection() {
  const user = useUser();
  const store = useSessionStore();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const [password, setPassword] = useState("");
  const remove = useDeleteAccount({
    onSuccess: () => {
      store.forget();
      void navigate("/login", { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    remove.mutate({ password });
  };
  return (
    <Section id="delete" title="Delete account" description="Your account and its sessions are removed. This cannot be undone.">
      <Group>
        <Button color="red" variant="outline" onClick={open}>
          Delete my account
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Delete your account?">
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{user.email} will be deleted and signed out everywhere. Enter your password to confirm.</Text>
            <ApiErrorAlert error={remove.error} />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              data-autofocus
            />
            <DialogActions confirmLabel="Delete account" color="red.9" loading={remove.isPending} onCancel={close} />
          </Stack>
        </form>
      </Modal>
    </Section>
  );
}
