import { Checkbox, Group, PasswordInput, SegmentedControl, Stack, TextInput } from "@mantine/core";
import { storageBody, useSetupCalls } from "./api";
import { ProbeButton } from "./ProbeButton";
import type { SetupForm } from "./setup-form";

/** Where messages are kept (the setup form's `storage`: S3-compatible or the local disk) and its connection test (`POST /setup/test-storage`). */
export function StorageFields({ form }: { form: SetupForm }) {
  const setup = useSetupCalls();
  const field = (name: string) => form.getInputProps(`storage.${name}`);
  const provider = form.values.storage.provider;
  return (
    <Stack gap="sm" pl="md">
      <SegmentedControl
        aria-label="Storage provider"
        data={[
          { value: "s3", label: "S3-compatible" },
          { value: "local", label: "Local disk" },
        ]}
        value={provider}
        onChange={(v) => form.setFieldValue("storage.provider", v)}
      />
      {provider === "local" ? (
        <TextInput label="Directory (optional)" description="Where the service keeps messages on its disk." {...field("local_path")} />
      ) : (
        <>
          <TextInput label="Endpoint" placeholder="https://s3.example.com" required {...field("endpoint")} />
          <Group grow align="flex-start">
            <TextInput label="Bucket" required {...field("bucket")} />
            <TextInput label="Region (optional)" {...field("region")} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label="Access key" autoComplete="off" {...field("access_key")} />
            <PasswordInput label="Secret key" autoComplete="new-password" {...field("secret_key")} />
          </Group>
          <Checkbox label="Use TLS (https)" {...form.getInputProps("storage.use_ssl", { type: "checkbox" })} />
        </>
      )}
      <ProbeButton
        run={() => {
          const { setup_token, storage } = form.getValues();
          const { local_path: _, secret_key, ...probe } = storageBody(storage);
          const body = { setup_token: setup_token.trim(), ...probe, ...(secret_key ? { secret_key } : {}) };
          return setup.testStorage(body);
        }}
      >
        Test the storage
      </ProbeButton>
    </Stack>
  );
}
