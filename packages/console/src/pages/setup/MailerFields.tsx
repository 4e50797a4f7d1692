import { Checkbox, Group, NumberInput, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useSetupCalls, type Mailer } from "./api";
import { ProbeButton } from "./ProbeButton";

/** The outbound mailer's settings and its connection test (`POST /setup/test-smtp`). */
export function MailerFields({ token, value, onChange }: { token: string; value: Mailer; onChange: (m: Mailer) => void }) {
  const setup = useSetupCalls();
  const set = (patch: Partial<Mailer>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="sm" pl="md">
      <Group grow align="flex-start">
        <TextInput label="SMTP host" required value={value.host} onChange={(e) => set({ host: e.currentTarget.value })} />
        <NumberInput label="Port" required min={1} max={65535} value={value.port} onChange={(v) => set({ port: Number(v) || 0 })} />
      </Group>
      <TextInput label="From address" type="email" required value={value.from} onChange={(e) => set({ from: e.currentTarget.value })} />
      <Group grow align="flex-start">
        <TextInput
          label="Username (optional)"
          autoComplete="off"
          value={value.username ?? ""}
          onChange={(e) => set({ username: e.currentTarget.value })}
        />
        <PasswordInput
          label="Password (optional)"
          autoComplete="new-password"
          value={value.password ?? ""}
          onChange={(e) => set({ password: e.currentTarget.value })}
        />
      </Group>
      <Checkbox label="Use TLS" checked={value.tls} onChange={(e) => set({ tls: e.currentTarget.checked })} />
      <ProbeButton
        run={() =>
          setup.testSmtp({
            setup_token: token.trim(),
            host: value.host.trim(),
            port: value.port,
            tls: value.tls,
            ...(value.username ? { username: value.username } : {}),
            ...(value.password ? { password: value.password } : {}),
          })
        }
      >
        Test the mailer
      </ProbeButton>
    </Stack>
  );
}
