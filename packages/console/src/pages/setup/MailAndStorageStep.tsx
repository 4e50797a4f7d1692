import { Stack, Switch, Text } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import type { Mailer, Storage } from "./api";
import { MailerFields } from "./MailerFields";
import { StepButtons } from "./StepButtons";
import { StorageFields } from "./StorageFields";

/** Step 4 (optional settings): the outbound mailer and the message storage, each with its test; its submit stores everything. */
export function MailAndStorageStep({
  token,
  withMailer,
  setWithMailer,
  mailer,
  setMailer,
  withStorage,
  setWithStorage,
  storage,
  setStorage,
  error,
  busy,
  complete,
  back,
}: {
  token: string;
  withMailer: boolean;
  setWithMailer: (on: boolean) => void;
  mailer: Mailer;
  setMailer: (mailer: Mailer) => void;
  withStorage: boolean;
  setWithStorage: (on: boolean) => void;
  storage: Storage;
  setStorage: (storage: Storage) => void;
  error: unknown;
  busy: boolean;
  complete: (e: FormEvent) => Promise<void>;
  back: () => void;
}) {
  return (
    <form onSubmit={(e) => void complete(e)}>
      <Stack mt="md">
        <Text size="sm">
          Both are optional: without a mailer, the service uses its configured one for invites and password resets; without a storage,
          messages stay on the local disk. You can change both later in the admin console.
        </Text>
        <Switch label="Configure an outbound mailer" checked={withMailer} onChange={(e) => setWithMailer(e.currentTarget.checked)} />
        {withMailer && <MailerFields token={token} value={mailer} onChange={setMailer} />}
        <Switch label="Configure message storage" checked={withStorage} onChange={(e) => setWithStorage(e.currentTarget.checked)} />
        {withStorage && <StorageFields token={token} value={storage} onChange={setStorage} />}
        <ApiErrorAlert error={error} />
        <StepButtons onBack={back} submit="Finish setup" busy={busy} />
      </Stack>
    </form>
  );
}
