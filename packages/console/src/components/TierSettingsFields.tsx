import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { TierSettings as TierSettingsBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { useContractForm } from "../lib/contract-form";
import { ApiErrorAlert } from "./ApiErrorAlert";

export type TierSettings = components["schemas"]["TierSettings"];

const ATTACHMENTS = [
  { value: "", label: "Inherit" },
  { value: "true", label: "Allowed" },
  { value: "false", label: "Not allowed" },
];

/** Reads a tier's settings object (API answers are loosely typed) into the form's shape. */
export function tierSettingsOf(settings: Record<string, unknown> | undefined): TierSettings {
  const s = settings ?? {};
  return {
    default_inbox_ttl: typeof s.default_inbox_ttl === "string" ? s.default_inbox_ttl : undefined,
    max_inbox_ttl: typeof s.max_inbox_ttl === "string" ? s.max_inbox_ttl : undefined,
    attachments_enabled: typeof s.attachments_enabled === "boolean" ? s.attachments_enabled : undefined,
    max_inboxes_per_domain: typeof s.max_inboxes_per_domain === "number" ? s.max_inboxes_per_domain : undefined,
  };
}

/** The form's fields as the request's settings: an empty field is left out (inherited). */
type TierValues = {
  default_inbox_ttl: string;
  max_inbox_ttl: string;
  attachments_enabled: string;
  max_inboxes_per_domain: number | string;
};
function settingsOf(v: TierValues) {
  const next: TierSettings = {};
  if (v.default_inbox_ttl.trim()) next.default_inbox_ttl = v.default_inbox_ttl.trim();
  if (v.max_inbox_ttl.trim()) next.max_inbox_ttl = v.max_inbox_ttl.trim();
  if (v.attachments_enabled) next.attachments_enabled = v.attachments_enabled === "true";
  if (typeof v.max_inboxes_per_domain === "number") next.max_inboxes_per_domain = v.max_inboxes_per_domain;
  return next;
}

/**
 * The settings of one tier of the TTL cascade (team, or a team's domain assignment). Empty fields
 * inherit from the tier above; the note says how the API resolves them.
 */
export function TierSettingsForm({
  initial,
  tier,
  disabled,
  saving,
  error,
  onSave,
}: {
  initial: TierSettings;
  tier: string;
  disabled?: boolean;
  saving?: boolean;
  error?: unknown;
  onSave: (settings: TierSettings) => void;
}) {
  const form = useContractForm<TierValues>(
    TierSettingsBody,
    {
      default_inbox_ttl: initial.default_inbox_ttl ?? "",
      max_inbox_ttl: initial.max_inbox_ttl ?? "",
      attachments_enabled: initial.attachments_enabled === undefined ? "" : String(initial.attachments_enabled),
      max_inboxes_per_domain: initial.max_inboxes_per_domain ?? "",
    },
    { toBody: settingsOf },
  );
  const submit = () => {
    if (!form.validate().hasErrors) onSave(settingsOf(form.getValues()));
  };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Leave a field empty to inherit it. An inbox's default lifetime is the first one set of assignment, team, domain, org and the
        platform; its maximum is the smallest maximum set on any of them, so the {tier} cannot raise a maximum set above it. Durations look
        like 30m, 2h or 7d.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Default inbox lifetime" placeholder="inherit" disabled={disabled} {...form.getInputProps("default_inbox_ttl")} />
        <TextInput label="Maximum inbox lifetime" placeholder="inherit" disabled={disabled} {...form.getInputProps("max_inbox_ttl")} />
        <Select
          label="Attachments"
          data={ATTACHMENTS}
          disabled={disabled}
          allowDeselect={false}
          {...form.getInputProps("attachments_enabled")}
          onChange={(v: string | null) => form.setFieldValue("attachments_enabled", v ?? "")}
        />
        <NumberInput
          label="Active inboxes per domain"
          placeholder="inherit"
          min={1}
          disabled={disabled}
          {...form.getInputProps("max_inboxes_per_domain")}
        />
      </SimpleGrid>
      <ApiErrorAlert error={error} />
      {!disabled && (
        <Group justify="flex-end">
          <Button loading={saving} onClick={submit}>
            Save settings
          </Button>
        </Group>
      )}
    </Stack>
  );
}
