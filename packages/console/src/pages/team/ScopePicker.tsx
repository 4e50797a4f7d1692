import { Button, Checkbox, Fieldset, Group, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { useApiQuery } from "../../api/query";
import { ApiErrorAlert } from "../../components";
import { teamKeys } from "./keys";

type Permission = components["schemas"]["Permission"];

const GROUP_LABELS: Record<string, string> = {
  team: "Team",
  members: "Members",
  domains: "Domains",
  webhooks: "Webhooks",
  apikeys: "API keys",
  inboxes: "Inboxes",
  emails: "Emails",
  analytics: "Analytics",
};

/** What each built-in scope allows (spec 2.2), for when the catalog's own description only repeats the key. */
const HINTS: Record<string, string> = {
  "team.view": "View team info",
  "team.settings.manage": "Edit team settings",
  "team.members.view": "View team members",
  "team.members.manage": "Add and remove team members",
  "team.members.role": "Change team member roles",
  "team.domains.view": "View domain assignments",
  "team.domains.manage": "Update domain assignment settings",
  "team.webhooks.view": "View webhooks and delivery logs",
  "team.webhooks.manage": "Create, edit and delete webhooks",
  "team.apikeys.view": "View API keys",
  "team.apikeys.manage": "Create, revoke and rotate API keys",
  "team.inboxes.view": "View team inboxes",
  "team.inboxes.create": "Create inboxes",
  "team.inboxes.manage": "Extend and delete inboxes",
  "team.emails.view": "Read emails and attachments",
  "team.emails.manage": "Mark emails read and delete them",
  "team.analytics.view": "View team analytics",
};

/** The catalog's description unless it says no more than the key (custom permissions keep theirs). */
export function hintOf(p: { key: string; label: string; description: string }): string {
  const says = (t: string) => t.trim() !== "" && !t.includes(p.key);
  if (says(p.description)) return p.description;
  return HINTS[p.key] ?? (says(p.label) ? p.label : "");
}

/** `team.inboxes.create` -> "inboxes"; `team.view`, `team.settings.manage` -> "team". */
export const groupOf = (key: string) => {
  const parts = key.split(".");
  return parts.length > 2 && parts[1] !== "settings" ? parts[1]! : "team";
};

/** Scopes to grant, grouped by what they reach, with presets; every scope a labelled checkbox. */
export function ScopePicker({ value, onChange, error }: { value: string[]; onChange: (v: string[]) => void; error?: string }) {
  const q = useApiQuery(teamKeys.permissions(), (bb, signal) => bb.api.GET("/roles", { signal }), { staleTime: 5 * 60_000 });
  if (q.error) return <ApiErrorAlert error={q.error} title="The scopes could not be loaded" />;
  if (!q.data) return <Skeleton h={200} aria-label="Loading scopes" />;
  const permissions: Permission[] = q.data.team_permissions;
  const groups = new Map<string, Permission[]>();
  for (const p of permissions) groups.set(groupOf(p.key), [...(groups.get(groupOf(p.key)) ?? []), p]);
  const all = permissions.map((p) => p.key);
  return (
    <Checkbox.Group
      label="Scopes"
      description="What the key may do; it can never do more than you can."
      value={value}
      onChange={onChange}
      error={error}
    >
      <Group gap="xs" mt="xs" mb="sm">
        <Button size="compact-sm" variant="light" onClick={() => onChange(all)}>
          All scopes
        </Button>
        <Button size="compact-sm" variant="light" onClick={() => onChange(all.filter((k) => k.endsWith(".view")))}>
          Read only
        </Button>
        <Button size="compact-sm" variant="default" onClick={() => onChange([])}>
          None
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {[...groups].map(([group, perms]) => (
          <Fieldset key={group} legend={GROUP_LABELS[group] ?? group} variant="filled" p="sm">
            <Stack gap={6}>
              {perms.map((p) => (
                <Checkbox
                  key={p.key}
                  value={p.key}
                  label={
                    <Text size="sm" ff="monospace">
                      {p.key}
                    </Text>
                  }
                  description={hintOf(p) || undefined}
                />
              ))}
            </Stack>
          </Fieldset>
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
