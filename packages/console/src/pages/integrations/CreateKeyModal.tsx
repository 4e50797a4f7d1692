import { Group, Modal, Select, Stack, TagsInput, TextInput } from "@mantine/core";
import { CreateApiKeyBody } from "@burnbox/contracts/src/identity/api-keys.schemas";
import { useContractForm } from "../../lib/contract-form";
import { ApiErrorAlert, DialogActions } from "../../components";
import { teamKeys } from "./keys";
import { ScopePicker } from "./ScopePicker";
import type { TeamScope } from "./TeamGate";
import { useCreateApiKey } from "./api";

const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "1 year" },
];

const keyBody = (v: { name: string; scopes: string[]; expires_in: string; allowed_ips: string[] }) => ({
  name: v.name.trim(),
  scopes: v.scopes,
  allowed_ips: v.allowed_ips,
  ...(v.expires_in === "never" ? {} : { expires_in: v.expires_in }),
});

/** Create an API key: name, scopes, lifetime, allowed IPs; hands the raw key (shown once) to `onCreated`. */
export function CreateKeyModal({
  scope,
  opened,
  onClose,
  onCreated,
}: {
  scope: TeamScope;
  opened: boolean;
  onClose: () => void;
  onCreated: (key: { name: string; raw_key: string }) => void;
}) {
  const form = useContractForm(
    CreateApiKeyBody,
    { name: "", scopes: [] as string[], expires_in: "never", allowed_ips: [] as string[] },
    {
      toBody: keyBody,
      rules: (v) => ({
        name: v.name.trim() ? undefined : "Give the key a name",
        scopes: v.scopes.length ? undefined : "Pick at least one scope",
      }),
    },
  );
  const create = useCreateApiKey({ scopeOrgId: scope.orgId, scopeTeamId: scope.teamId }, { invalidates: [teamKeys.apiKeys(scope.teamId)] });

  const reset = () => {
    form.reset();
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    create.mutate(keyBody(values), {
      onSuccess: (key) => {
        reset();
        onCreated({ name: key.name, raw_key: key.raw_key });
      },
    }),
  );

  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={close} title="Create an API key" size="xl">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="What uses it, e.g. “CI signup tests”"
            {...form.getInputProps("name")}
            required
            data-autofocus
          />
          <ScopePicker
            value={form.getValues().scopes}
            onChange={(v) => form.setFieldValue("scopes", v)}
            error={form.errors.scopes as string | undefined}
          />
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label="Expires"
              data={EXPIRY}
              {...form.getInputProps("expires_in")}
              onChange={(v: string | null) => form.setFieldValue("expires_in", v ?? "never")}
              allowDeselect={false}
              miw={160}
            />
            <TagsInput
              label="Allowed IPs"
              description="IP addresses or CIDR ranges, Enter after each; empty: any"
              {...form.getInputProps("allowed_ips")}
              splitChars={[",", " "]}
              miw={220}
            />
          </Group>
          <ApiErrorAlert error={create.error} />
          <DialogActions confirmLabel="Create key" loading={create.isPending} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
