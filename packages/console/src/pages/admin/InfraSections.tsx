import {
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { UpdateMailerConfigBody, UpdateStorageConfigBody } from "@burnbox/contracts/src/tenancy/platform-config.schemas";
import { useContractForm } from "../../lib/contract-form";
import { useValuesFrom } from "../../lib/use-values-from";
import { ApiErrorAlert } from "../../components";
import { adminKeys } from "./keys";
import { SecretState } from "./SecretState";
import { TestResult } from "./TestResult";
import { notify } from "../../lib/notify";
import { Section } from "./Section";
import {
  useMailerConfig,
  useSaveMailerConfig,
  useTestSmtp,
  useStorageConfig,
  useSaveStorageConfig,
  useTestStorage,
  type StorageUpdate,
} from "./api";

type MailerConfig = components["schemas"]["MailerConfig"];
type StorageConfig = components["schemas"]["StorageConfig"];

/** The outbound mailer (invites, password resets): the password is write-only. */
export function MailerSection() {
  const q = useMailerConfig();
  return (
    <Section title="Mailer" description="The SMTP server BurnBox sends its own mail through: invites, password resets, verification.">
      <ApiErrorAlert error={q.error} />
      {!q.data ? (
        q.isPending && (
          <Center py="md">
            <Loader aria-label="Loading the mailer" />
          </Center>
        )
      ) : (
        <MailerForm saved={q.data} />
      )}
    </Section>
  );
}

type MailerValues = Omit<MailerConfig, "has_password"> & { password: string; clear_password: boolean };
const mailerValues = ({ has_password: _ignored, ...rest }: MailerConfig): MailerValues => ({
  ...rest,
  password: "",
  clear_password: false,
});
// "" keeps the stored password, null clears it; the value is never read back
const mailerBody = ({ clear_password, password, ...rest }: MailerValues) => ({ ...rest, password: clear_password ? null : password });

function MailerForm({ saved }: { saved: MailerConfig }) {
  const form = useContractForm<MailerValues>(UpdateMailerConfigBody, mailerValues(saved), { toBody: mailerBody });
  useValuesFrom(saved, mailerValues, form.setValues);
  const test = useTestSmtp();
  const save = useSaveMailerConfig({
    invalidates: [adminKeys.mailer()],
    onSuccess: () => {
      form.setValues({ password: "", clear_password: false });
      test.reset();
      notify("Mailer saved");
    },
  });
  const set = (patch: Partial<MailerValues>) => form.setValues(patch);
  const draft = form.getValues();
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(mailerBody(v)))}>
      <Stack gap="sm" maw={560}>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label="SMTP host" required {...form.getInputProps("host")} miw={220} />
          <NumberInput
            label="Port"
            required
            min={1}
            max={65535}
            allowDecimal={false}
            {...form.getInputProps("port")}
            onChange={(v) => set({ port: Number(v) })}
            maw={140}
          />
        </Group>
        <TextInput label="Sender (From)" required {...form.getInputProps("from")} />
        <TextInput label="Username" {...form.getInputProps("username")} autoComplete="off" />
        <SecretState label="Password" set={saved.has_password} />
        <PasswordInput
          label="New password"
          description="Leave empty to keep the stored one. It is never shown again."
          {...form.getInputProps("password")}
          disabled={draft.clear_password}
          autoComplete="new-password"
        />
        {saved.has_password && (
          <Checkbox label="Remove the stored password" {...form.getInputProps("clear_password", { type: "checkbox" })} />
        )}
        <Switch label="Use TLS from the start (port 465)" {...form.getInputProps("tls", { type: "checkbox" })} />
        <ApiErrorAlert error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save mailer
          </Button>
          <Button variant="default" loading={test.isPending} onClick={() => test.mutate(undefined)}>
            Test the mailer
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          The test connects to the saved mailer (save first).
        </Text>
        <ApiErrorAlert error={test.error} />
        <TestResult result={test.data} what="Mailer" />
      </Stack>
    </form>
  );
}

/** Where attachments are kept: local disk or S3; the secret key is write-only. */
export function StorageSection() {
  const q = useStorageConfig();
  return (
    <Section title="Storage" description="Where attachments are kept. A change is checked with a connection before it is saved.">
      <ApiErrorAlert error={q.error} />
      {!q.data ? (
        q.isPending && (
          <Center py="md">
            <Loader aria-label="Loading storage" />
          </Center>
        )
      ) : (
        <StorageForm saved={q.data} />
      )}
    </Section>
  );
}

type StorageValues = Omit<StorageConfig, "has_secret_key"> & { secret_key: string };
const storageValues = ({ has_secret_key: _ignored, ...rest }: StorageConfig): StorageValues => ({ ...rest, secret_key: "" });
const storageBody = (d: StorageValues): StorageUpdate =>
  d.provider === "local"
    ? { provider: "local", ...(d.local_path ? { local_path: d.local_path } : {}) }
    : {
        provider: "s3",
        endpoint: d.endpoint ?? "",
        bucket: d.bucket ?? "",
        region: d.region ?? "",
        access_key: d.access_key ?? "",
        use_ssl: d.use_ssl ?? true,
        ...(d.secret_key ? { secret_key: d.secret_key } : {}),
      };

function StorageForm({ saved }: { saved: StorageConfig }) {
  const form = useContractForm<StorageValues>(UpdateStorageConfigBody, storageValues(saved), { toBody: storageBody });
  useValuesFrom(saved, storageValues, form.setValues);
  const test = useTestStorage();
  const save = useSaveStorageConfig({
    invalidates: [adminKeys.storage()],
    onSuccess: () => {
      form.setValues({ secret_key: "" });
      test.reset();
      notify("Storage saved");
    },
  });
  const draft = form.getValues();
  // the optional fields show "" while the configuration holds none
  const text = (name: "local_path" | "endpoint" | "bucket" | "region" | "access_key") => ({
    ...form.getInputProps(name),
    value: draft[name] ?? "",
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(storageBody(v)))}>
      <Stack gap="sm" maw={560}>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="storage-provider-label">
            Provider
          </Text>
          <SegmentedControl
            aria-labelledby="storage-provider-label"
            value={draft.provider}
            onChange={(v) => form.setValues({ provider: v })}
            data={[
              { value: "local", label: "Local disk" },
              { value: "s3", label: "S3-compatible" },
            ]}
          />
        </Stack>
        {draft.provider === "local" ? (
          <TextInput label="Folder" description="Leave empty for the configured folder." {...text("local_path")} />
        ) : (
          <>
            <TextInput label="Endpoint" required placeholder="s3.example.com" {...text("endpoint")} />
            <Group grow align="flex-start" wrap="wrap">
              <TextInput label="Bucket" required {...text("bucket")} miw={200} />
              <TextInput label="Region" {...text("region")} miw={160} />
            </Group>
            <TextInput label="Access key" {...text("access_key")} autoComplete="off" />
            <SecretState label="Secret key" set={saved.has_secret_key} />
            <PasswordInput
              label="New secret key"
              description="Leave empty to keep the stored one. It is never shown again."
              {...form.getInputProps("secret_key")}
              autoComplete="new-password"
            />
            <Switch label="Use HTTPS" {...form.getInputProps("use_ssl", { type: "checkbox" })} checked={draft.use_ssl ?? true} />
          </>
        )}
        <ApiErrorAlert error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save storage
          </Button>
          <Button variant="default" loading={test.isPending} onClick={() => test.mutate(undefined)}>
            Test storage
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          The test checks the saved storage.
        </Text>
        <ApiErrorAlert error={test.error} />
        <TestResult result={test.data} what="Storage" />
      </Stack>
    </form>
  );
}
