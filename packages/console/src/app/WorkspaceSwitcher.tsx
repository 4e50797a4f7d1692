import { Group, Select } from "@mantine/core";
import { useWorkspace } from "../api/workspace";

/** The header's org and team choice (what every team page works in). */
export function WorkspaceSwitcher() {
  const w = useWorkspace();
  if (w.orgs.length === 0) return null;
  return (
    <Group gap="xs" wrap="nowrap" visibleFrom="sm">
      <Select
        aria-label="Organisation"
        size="xs"
        w={180}
        data={w.orgs.map((o) => ({ value: o.id, label: o.name }))}
        value={w.org?.id ?? null}
        onChange={(v) => v && w.selectOrg(v)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        aria-label="Team"
        size="xs"
        w={180}
        placeholder={w.teams.length === 0 ? "No team" : undefined}
        data={w.teams.map((t) => ({ value: t.id, label: t.name }))}
        value={w.team?.id ?? null}
        onChange={(v) => v && w.selectTeam(v)}
        disabled={w.teams.length === 0}
        allowDeselect={false}
      />
    </Group>
  );
}
