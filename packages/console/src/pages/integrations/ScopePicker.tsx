import { Button, Checkbox, Fieldset, Group, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { ApiErrorAlert } from "../../components";
import { GROUP_LABELS, groupOf, hintOf } from "./scopes";
import { useRoles } from "./api";

type Permission = components["schemas"]["Permission"];

/** Scopes to grant, grouped by what they reach, with presets; every scope a labelled checkbox. */
export function ScopePicker({ value, onChange, error }: { value: string[]; onChange: (v: string[]) => void; error?: string }) {
  const q = useRoles({ staleTime: 5 * 60_000 });
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
