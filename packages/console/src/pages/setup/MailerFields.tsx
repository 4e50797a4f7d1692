import { Checkbox, Group, NumberInput, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useSetupCalls } from "./api";
import { ProbeButton } from "./ProbeButton";
import type { SetupForm } from "./setup-form";

/** The outbound mailer's settings (the setup form's `mailer`) and its connection test (`POST /setup/test-smtp`). */
export function MailerFields({ form }: { form: SetupForm }) {
  const setup = useSetupCalls();
  const field = (name: string) => form.getInputProps(`mailer.${name}`);
  return (
    <Stack gap="sm" pl="md">
      <Group grow align="flex-start">
        <TextInput label="SMTP host" required {...field("host")} />
        <NumberInput label="Port" required min={1} max={65535} {...field("port")} />
      </Group>
      <TextInput label="From address" type="email" required {...field("from")} />
      <Group grow align="flex-start">
        <TextInput label="Username (optional)" autoComplete="off" {...field("username")} />
        <PasswordInput label="Password (optional)" autoComplete="new-password" {...field("password")} />
      </Group>
      <Checkbox label="Use TLS" {...form.getInputProps("mailer.tls", { type: "checkbox" })} />
      <ProbeButton
        run={() => {
          const { setup_token, mailer } = form.getValues();
          return setup.testSmtp({
            setup_token: setup_token.trim(),
            host: mailer.host.trim(),
            port: mailer.port,
            tls: mailer.tls,
            ...(mailer.username ? { username: mailer.username } : {}),
            ...(mailer.password ? { password: mailer.password } : {}),
          });
        }}
      >
        Test the mailer
      </ProbeButton>
    </Stack>
  );
}
