import { Alert, Button, Code, Group, List, Stack, Text, TextInput } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import type { FormEvent } from "react";
import type { components } from "@burnbox/sdk";
import { ApiErrorAlert } from "../../components";
import type { SetupForm } from "./setup-form";

/** Step 1: the setup token (filled in from the link `npm start` prints, or typed), and the data stores this installation uses. */
export function TokenStep({
  linked,
  form,
  stores,
  error,
  next,
}: {
  linked: string;
  form: SetupForm;
  stores: components["schemas"]["SetupStatus"]["datastores"] | undefined;
  error: unknown;
  next: (e: FormEvent) => void;
}) {
  return (
    <form onSubmit={next}>
      <Stack mt="md">
        <Text size="sm">
          <Code>npm start</Code> printed a link with the token in its summary (<Code>/setup?token=…</Code>): opening it fills the token in.
          In a deployment it is the <Code>setup.token</Code> setting (<Code>BB_SETUP_TOKEN</Code>); when that is unset, the tenancy service
          printed a one-time token in its log (the line <Code>first-run setup token</Code>, field <Code>setup_token</Code>).
        </Text>
        {linked && form.values.setup_token === linked && (
          <Alert role="status" color="green" variant="light" icon={<IconCircleCheck />}>
            The token from the link is filled in.
          </Alert>
        )}
        <ApiErrorAlert error={error} />
        <TextInput label="Setup token" required autoComplete="off" spellCheck={false} {...form.getInputProps("setup_token")} />
        {stores && (
          <div>
            <Text size="sm" fw={500}>
              This installation connects to
            </Text>
            <List size="sm" aria-label="Data stores">
              <List.Item>PostgreSQL: {stores.postgres}</List.Item>
              <List.Item>Redis: {stores.redis}</List.Item>
              <List.Item>NATS: {stores.nats}</List.Item>
              <List.Item>Message storage: {stores.storage}</List.Item>
            </List>
          </div>
        )}
        <Group justify="flex-end">
          <Button type="submit">Next</Button>
        </Group>
      </Stack>
    </form>
  );
}
