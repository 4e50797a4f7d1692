import { Checkbox, Group, PasswordInput, SegmentedControl, Stack, TextInput } from "@mantine/core";
import { storageBody, useSetupCalls, type Storage } from "./api";
import { ProbeButton } from "./ProbeButton";

/** Where messages are kept (S3-compatible or the local disk) and its connection test (`POST /setup/test-storage`). */
export function StorageFields({ token, value, onChange }: { token: string; value: Storage; onChange: (s: Storage) => void }) {
  const setup = useSetupCalls();
  const set = (patch: Partial<Storage>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="sm" pl="md">
      <SegmentedControl
        aria-label="Storage provider"
        data={[
          { value: "s3", label: "S3-compatible" },
          { value: "local", label: "Local disk" },
        ]}
        value={value.provider}
        onChange={(v) => set({ provider: v })}
      />
      {value.provider === "local" ? (
        <TextInput
          label="Directory (optional)"
          description="Where the service keeps messages on its disk."
          value={value.local_path ?? ""}
          onChange={(e) => set({ local_path: e.currentTarget.value })}
        />
      ) : (
        <>
          <TextInput
            label="Endpoint"
            placeholder="https://s3.example.com"
            required
            value={value.endpoint ?? ""}
            onChange={(e) => set({ endpoint: e.currentTarget.value })}
          />
          <Group grow align="flex-start">
            <TextInput label="Bucket" required value={value.bucket ?? ""} onChange={(e) => set({ bucket: e.currentTarget.value })} />
            <TextInput label="Region (optional)" value={value.region ?? ""} onChange={(e) => set({ region: e.currentTarget.value })} />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Access key"
              autoComplete="off"
              value={value.access_key ?? ""}
              onChange={(e) => set({ access_key: e.currentTarget.value })}
            />
            <PasswordInput
              label="Secret key"
              autoComplete="new-password"
              value={value.secret_key ?? ""}
              onChange={(e) => set({ secret_key: e.currentTarget.value })}
            />
          </Group>
          <Checkbox label="Use TLS (https)" checked={value.use_ssl ?? true} onChange={(e) => set({ use_ssl: e.currentTarget.checked })} />
        </>
      )}
      <ProbeButton
        run={() => {
          const { local_path: _, secret_key, ...probe } = storageBody(value);
          const body = { setup_token: token.trim(), ...probe, ...(secret_key ? { secret_key } : {}) };
          return setup.testStorage(body);
        }}
      >
        Test the storage
      </ProbeButton>
    </Stack>
  );
}
