import { Button, Group, Paper, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { workspaceKeys } from "../../api/keys";
import type { OrgWithRole, Team } from "../../api/workspace";
import { teamsKeys } from "./keys";
import type { TeamPermissions } from "../../api/team-permissions";
import { tierSettingsOf, TierSettingsForm } from "../../components/TierSettingsFields";
import { useUpdateTeam } from "./api";

/** The team's name, description and its tier of the inbox settings (`PATCH …/teams/:tid`, `team.settings.manage`). */
export function SettingsSection({ org, team, perms }: { org: OrgWithRole; team: Team; perms: TeamPermissions }) {
  const canEdit = perms.can("team.settings.manage") && !team.is_archived;
  const [name, setName] = useState(team.name);
  const [description, setDescription] = useState(team.description ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const update = useUpdateTeam(
    { orgId: org.id, teamId: team.id },
    { invalidates: [teamsKeys.all, workspaceKeys.teams(org.id)], onSuccess: () => setSaved("Saved.") },
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="team-settings">
      <Title order={2} size="h4" id="team-settings" mb="sm">
        Settings
      </Title>
      <Stack gap="lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(null);
            update.mutate({ name: name.trim(), description: description.trim() || null });
          }}
        >
          <Stack gap="sm">
            <TextInput label="Team name" value={name} disabled={!canEdit} onChange={(e) => setName(e.currentTarget.value)} />
            <Textarea
              label="Description"
              value={description}
              disabled={!canEdit}
              autosize
              minRows={2}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            {canEdit && (
              <Group justify="flex-end">
                <Button type="submit" variant="default" loading={update.isPending}>
                  Save name and description
                </Button>
              </Group>
            )}
          </Stack>
        </form>
        <TierSettingsForm
          tier="team"
          initial={tierSettingsOf(team.settings)}
          disabled={!canEdit}
          saving={update.isPending}
          error={update.error}
          onSave={(settings) => {
            setSaved(null);
            update.mutate({ settings });
          }}
        />
        {saved && (
          <Text size="sm" c="teal" role="status">
            {saved}
          </Text>
        )}
        {!canEdit && !perms.isLoading && (
          <Text size="sm" c="dimmed">
            {team.is_archived
              ? "An archived team's settings cannot change."
              : "Only the team's leads and the organization's owners and admins change these."}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
