import { Stack, Switch, Text } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import { MailerFields } from "./MailerFields";
import type { SetupForm } from "./setup-form";
import { StepButtons } from "./StepButtons";
import { StorageFields } from "./StorageFields";

/** Step 4 (optional settings): the outbound mailer and the message storage, each with its test; its submit stores everything. */
export function MailAndStorageStep({
  form,
  error,
  busy,
  complete,
  back,
}: {
  form: SetupForm;
  error: unknown;
  busy: boolean;
  complete: (e?: FormEvent<HTMLFormElement>) => void;
  back: () => void;
}) {
  return (
    <form onSubmit={complete}>
      <Stack mt="md">
        <Text size="sm">
          Both are optional: without a mailer, the service uses its configured one for invites and password resets; without a storage,
          messages stay on the local disk. You can change both later in the admin console.
        </Text>
        <Switch label="Configure an outbound mailer" {...form.getInputProps("with_mailer", { type: "checkbox" })} />
        {form.values.with_mailer && <MailerFields form={form} />}
        <Switch label="Configure message storage" {...form.getInputProps("with_storage", { type: "checkbox" })} />
        {form.values.with_storage && <StorageFields form={form} />}
        <ApiErrorAlert error={error} />
        <StepButtons onBack={back} submit="Finish setup" busy={busy} />
      </Stack>
    </form>
  );
}
