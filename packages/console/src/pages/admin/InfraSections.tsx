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
import { useEffect, useState } from "react";
import type { components } from "@burnbox/sdk";
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
  const [draft, setDraft] = useState<Omit<MailerConfig, "has_password"> | null>(null);
  const [password, setPassword] = useState("");
  const [clearPassword, setClearPassword] = useState(false);
  useEffect(() => {
    if (q.data) {
      const { has_password: _ignored, ...rest } = q.data;
      setDraft(rest);
    }
  }, [q.data]);
  const save = useSaveMailerConfig({
    invalidates: [adminKeys.mailer()],
    onSuccess: () => {
      setPassword("");
      setClearPassword(false);
      test.reset();
      notify("Mailer saved");
    },
  });
  const test = useTestSmtp();
  const set = (patch: Partial<Omit<MailerConfig, "has_password">>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  return (
    <Section title="Mailer" description="The SMTP server BurnBox sends its own mail through: invites, password resets, verification.">
      <ApiErrorAlert error={q.error} />
      {!draft || !q.data ? (
        q.isPending && (
          <Center py="md">
            <Loader aria-label="Loading the mailer" />
          </Center>
        )
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            // "" keeps the stored password, null clears it; the value is never read back
            save.mutate({ ...draft, username: draft.username, password: clearPassword ? null : password });
          }}
        >
          <Stack gap="sm" maw={560}>
            <Group grow align="flex-start" wrap="wrap">
              <TextInput label="SMTP host" required value={draft.host} onChange={(e) => set({ host: e.currentTarget.value })} miw={220} />
              <NumberInput
                label="Port"
                required
                min={1}
                max={65535}
                allowDecimal={false}
                value={draft.port}
                onChange={(v) => set({ port: Number(v) })}
                maw={140}
              />
            </Group>
            <TextInput label="Sender (From)" required value={draft.from} onChange={(e) => set({ from: e.currentTarget.value })} />
            <TextInput
              label="Username"
              value={draft.username}
              onChange={(e) => set({ username: e.currentTarget.value })}
              autoComplete="off"
            />
            <SecretState label="Password" set={q.data.has_password} />
            <PasswordInput
              label="New password"
              description="Leave empty to keep the stored one. It is never shown again."
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              disabled={clearPassword}
              autoComplete="new-password"
            />
            {q.data.has_password && (
              <Checkbox
                label="Remove the stored password"
                checked={clearPassword}
                onChange={(e) => setClearPassword(e.currentTarget.checked)}
              />
            )}
            <Switch label="Use TLS from the start (port 465)" checked={draft.tls} onChange={(e) => set({ tls: e.currentTarget.checked })} />
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
      )}
    </Section>
  );
}

/** Where attachments are kept: local disk or S3; the secret key is write-only. */
export function StorageSection() {
  const q = useStorageConfig();
  const [draft, setDraft] = useState<Omit<StorageConfig, "has_secret_key"> | null>(null);
  const [secret, setSecret] = useState("");
  useEffect(() => {
    if (q.data) {
      const { has_secret_key: _ignored, ...rest } = q.data;
      setDraft(rest);
    }
  }, [q.data]);
  const save = useSaveStorageConfig({
    invalidates: [adminKeys.storage()],
    onSuccess: () => {
      setSecret("");
      test.reset();
      notify("Storage saved");
    },
  });
  const test = useTestStorage();
  const set = (patch: Partial<Omit<StorageConfig, "has_secret_key">>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const bodyOf = (d: Omit<StorageConfig, "has_secret_key">): StorageUpdate =>
    d.provider === "local"
      ? { provider: "local", ...(d.local_path ? { local_path: d.local_path } : {}) }
      : {
          provider: "s3",
          endpoint: d.endpoint ?? "",
          bucket: d.bucket ?? "",
          region: d.region ?? "",
          access_key: d.access_key ?? "",
          use_ssl: d.use_ssl ?? true,
          ...(secret ? { secret_key: secret } : {}),
        };

  return (
    <Section title="Storage" description="Where attachments are kept. A change is checked with a connection before it is saved.">
      <ApiErrorAlert error={q.error} />
      {!draft || !q.data ? (
        q.isPending && (
          <Center py="md">
            <Loader aria-label="Loading storage" />
          </Center>
        )
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(bodyOf(draft));
          }}
        >
          <Stack gap="sm" maw={560}>
            <Stack gap={4}>
              <Text size="sm" fw={500} id="storage-provider-label">
                Provider
              </Text>
              <SegmentedControl
                aria-labelledby="storage-provider-label"
                value={draft.provider}
                onChange={(v) => set({ provider: v })}
                data={[
                  { value: "local", label: "Local disk" },
                  { value: "s3", label: "S3-compatible" },
                ]}
              />
            </Stack>
            {draft.provider === "local" ? (
              <TextInput
                label="Folder"
                description="Leave empty for the configured folder."
                value={draft.local_path ?? ""}
                onChange={(e) => set({ local_path: e.currentTarget.value })}
              />
            ) : (
              <>
                <TextInput
                  label="Endpoint"
                  required
                  placeholder="s3.example.com"
                  value={draft.endpoint ?? ""}
                  onChange={(e) => set({ endpoint: e.currentTarget.value })}
                />
                <Group grow align="flex-start" wrap="wrap">
                  <TextInput
                    label="Bucket"
                    required
                    value={draft.bucket ?? ""}
                    onChange={(e) => set({ bucket: e.currentTarget.value })}
                    miw={200}
                  />
                  <TextInput label="Region" value={draft.region ?? ""} onChange={(e) => set({ region: e.currentTarget.value })} miw={160} />
                </Group>
                <TextInput
                  label="Access key"
                  value={draft.access_key ?? ""}
                  onChange={(e) => set({ access_key: e.currentTarget.value })}
                  autoComplete="off"
                />
                <SecretState label="Secret key" set={q.data.has_secret_key} />
                <PasswordInput
                  label="New secret key"
                  description="Leave empty to keep the stored one. It is never shown again."
                  value={secret}
                  onChange={(e) => setSecret(e.currentTarget.value)}
                  autoComplete="new-password"
                />
                <Switch label="Use HTTPS" checked={draft.use_ssl ?? true} onChange={(e) => set({ use_ssl: e.currentTarget.checked })} />
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
      )}
    </Section>
  );
}
