import { Button, Group, PasswordInput, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { accountKeys } from "../../api/keys";
import { ApiErrorAlert } from "../../components";
import { describePolicy } from "../../lib/password-policy";
import { useSsoStatus } from "../../api/auth";
import { Section } from "./Section";
import { useChangePassword } from "./api";

/** `PUT /auth/me/password`: the other sessions end, this one stays. */
export function PasswordSection() {
  const policy = useSsoStatus().data?.password_policy;
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const change = useChangePassword({
    invalidates: [accountKeys.all],
    onSuccess: () => {
      setCurrent("");
      setNext("");
      notifications.show({ color: "green", message: "Password changed; your other sessions were signed out." });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate({ current_password: current, new_password: next });
  };
  return (
    <Section id="password" title="Password" description="Changing it signs out your other sessions.">
      <form onSubmit={submit}>
        <Stack>
          <ApiErrorAlert error={change.error} />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            description={describePolicy(policy)}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
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
