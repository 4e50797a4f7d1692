import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import type { components } from "@burnbox/sdk";
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
  const [defaultTtl, setDefaultTtl] = useState(initial.default_inbox_ttl ?? "");
  const [maxTtl, setMaxTtl] = useState(initial.max_inbox_ttl ?? "");
  const [attachments, setAttachments] = useState(initial.attachments_enabled === undefined ? "" : String(initial.attachments_enabled));
  const [perDomain, setPerDomain] = useState<number | string>(initial.max_inboxes_per_domain ?? "");
  const submit = () => {
    const next: TierSettings = {};
    if (defaultTtl.trim()) next.default_inbox_ttl = defaultTtl.trim();
    if (maxTtl.trim()) next.max_inbox_ttl = maxTtl.trim();
    if (attachments) next.attachments_enabled = attachments === "true";
    if (typeof perDomain === "number") next.max_inboxes_per_domain = perDomain;
    onSave(next);
  };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Leave a field empty to inherit it. An inbox's default lifetime is the first one set of assignment, team, domain, org and the
        platform; its maximum is the smallest maximum set on any of them, so the {tier} cannot raise a maximum set above it. Durations look
        like 30m, 2h or 7d.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Default inbox lifetime"
          placeholder="inherit"
          value={defaultTtl}
          disabled={disabled}
          onChange={(e) => setDefaultTtl(e.currentTarget.value)}
        />
        <TextInput
          label="Maximum inbox lifetime"
          placeholder="inherit"
          value={maxTtl}
          disabled={disabled}
          onChange={(e) => setMaxTtl(e.currentTarget.value)}
        />
        <Select
          label="Attachments"
          data={ATTACHMENTS}
          value={attachments}
          disabled={disabled}
          allowDeselect={false}
          onChange={(v) => setAttachments(v ?? "")}
        />
        <NumberInput
          label="Active inboxes per domain"
          placeholder="inherit"
          min={1}
          value={perDomain}
          disabled={disabled}
          onChange={setPerDomain}
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
