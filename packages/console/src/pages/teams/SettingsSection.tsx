import { Text, TextInput, Textarea } from "@mantine/core";
import { UpdateTeamBody } from "@burnbox/contracts/src/tenancy/teams.schemas";
import { workspaceKeys } from "../../api/keys";
import type { OrgWithRole, Team } from "../../api/workspace";
import { teamsKeys } from "./keys";
import type { TeamPermissions } from "../../api/team-permissions";
import { TierDetailsForm, TierSettingsSection } from "../../components/TierSettingsSection";
import { useContractForm } from "../../lib/contract-form";
import { useUpdateTeam } from "./api";

const detailsOf = (v: { name: string; description: string }) => ({ name: v.name.trim(), description: v.description.trim() || null });

/** The team's name, description and its tier of the inbox settings (`PATCH …/teams/:tid`, `team.settings.manage`). */
export function SettingsSection({ org, team, perms }: { org: OrgWithRole; team: Team; perms: TeamPermissions }) {
  const canEdit = perms.can("team.settings.manage") && !team.is_archived;
  const form = useContractForm(UpdateTeamBody, { name: team.name, description: team.description ?? "" }, { toBody: detailsOf });
  const update = useUpdateTeam({ orgId: org.id, teamId: team.id }, { invalidates: [teamsKeys.all, workspaceKeys.teams(org.id)] });
  return (
    <TierSettingsSection
      id="team-settings"
      tier="team"
      settings={team.settings}
      canEdit={canEdit}
      update={update}
      footer={
        !canEdit &&
        !perms.isLoading && (
          <Text size="sm" c="dimmed">
            {team.is_archived
              ? "An archived team's settings cannot change."
              : "Only the team's leads and the organization's owners and admins change these."}
          </Text>
        )
      }
    >
      <TierDetailsForm
        canEdit={canEdit}
        saving={update.isPending}
        submitLabel="Save name and description"
        onSubmit={form.onSubmit((values) => update.mutate(detailsOf(values)))}
      >
        <TextInput label="Team name" disabled={!canEdit} {...form.getInputProps("name")} />
        <Textarea label="Description" disabled={!canEdit} autosize minRows={2} {...form.getInputProps("description")} />
      </TierDetailsForm>
    </TierSettingsSection>
  );
}
