import { Button, Group, Paper, Text, Title } from "@mantine/core";
import { IconUserMinus, IconUserPlus } from "@tabler/icons-react";
import { useState } from "react";
import { workspaceKeys } from "../../api/keys";
import type { OrgWithRole, Team } from "../../api/workspace";
import { ListView, useListParams, useSelection, withCount } from "../../components";
import { AddMembersModal } from "./AddMembersModal";
import { RemoveMembersModal } from "./RemoveMembersModal";
import { TeamMemberTable } from "./TeamMemberTable";
import { teamsKeys } from "./keys";
import type { TeamPermissions } from "../../api/team-permissions";
import { useRoles, useTeamMembers, useChangeTeamRole, useRemoveMember, useRemoveMembers } from "./api";
import { OutcomeNotice, type Outcome } from "../../components/OutcomeNotice";

interface Props {
  org: OrgWithRole;
  team: Team;
  perms: TeamPermissions;
}

/** The team's roles for the pickers (`GET /roles`; custom team roles included). */
function useTeamRoles() {
  const q = useRoles({ staleTime: 60_000 });
  return (q.data?.team_roles ?? [{ value: "member", label: "Member" }]).map((r) => ({ value: r.value, label: r.label }));
}

export function MembersSection({ org, team, perms }: Props) {
  const path = { orgId: org.id, teamId: team.id };
  const list = useListParams({ pageParam: "members_page", perPage: 20 });
  const q = useTeamMembers({ orgId: org.id, teamId: team.id, list, path, listPerPage: list.perPage });
  const roles = useTeamRoles();
  const canManage = perms.can("team.members.manage") && !team.is_archived;
  const canRole = perms.can("team.members.role") && !team.is_archived;
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<Outcome | null>(null);
  const invalidates = [teamsKeys.all, workspaceKeys.teams(org.id), workspaceKeys.teamMembership(org.id, team.id)];
  const rows = q.data?.data ?? [];
  const selection = useSelection(rows.map((m) => m.user_id));
  const emailOf = (userId: string) => rows.find((m) => m.user_id === userId)?.email ?? userId;

  const changeRole = useChangeTeamRole(
    { path },
    { invalidates, onSuccess: (m) => setNotice({ text: `${m.email} is now ${m.role}.`, details: [] }) },
  );
  const removeOne = useRemoveMember(
    { path },
    {
      invalidates,
      onSuccess: (_r, userId) => {
        setRemoving(null);
        setNotice({ text: `Removed ${emailOf(userId)} from the team.`, details: [] });
      },
    },
  );
  const removeMany = useRemoveMembers(
    { path },
    {
      invalidates,
      onSuccess: (r) => {
        setRemoving(null);
        selection.clear();
        setNotice({
          text: `Removed ${r.removed} ${r.removed === 1 ? "member" : "members"}.`,
          details: r.skipped.map((s) => `${emailOf(s.user_id)}: kept (${s.reason})`),
        });
      },
    },
  );
  const removeError = removeOne.error ?? removeMany.error;
  const memberTable = (page: typeof rows) => (
    <TeamMemberTable
      rows={page}
      roles={roles}
      selection={selection}
      canManage={canManage}
      canRole={canRole}
      onChangeRole={(userId, role) => changeRole.mutate({ userId, role })}
      onRemove={(userId) => setRemoving([userId])}
    />
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="team-members">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="team-members">
          Members
        </Title>
        {canManage && (
          <Group wrap="wrap">
            <Button
              color="red"
              variant="light"
              leftSection={<IconUserMinus size={16} />}
              disabled={selection.size === 0}
              onClick={() => setRemoving(selection.ids)}
            >
              {withCount("Remove selected", selection)}
            </Button>
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
              Add members
            </Button>
          </Group>
        )}
      </Group>
      <OutcomeNotice outcome={notice} onClose={() => setNotice(null)} />
      <ListView
        query={q}
        error={q.error ?? changeRole.error}
        loading={{ label: "Loading members", height: 120 }}
        empty={memberTable([])}
        pagination={{ params: list, label: "Member pages" }}
      >
        {memberTable}
      </ListView>
      {!canManage && !perms.isLoading && (
        <Text size="sm" c="dimmed" mt="sm">
          {team.is_archived
            ? "An archived team takes no member changes."
            : "Only the team's leads and the organization's owners and admins change its members."}
        </Text>
      )}
      <AddMembersModal org={org} team={team} opened={adding} roles={roles} onClose={() => setAdding(false)} onDone={setNotice} />
      <RemoveMembersModal
        removing={removing}
        emailOf={emailOf}
        error={removeError}
        loading={removeOne.isPending || removeMany.isPending}
        onRemove={(ids) => (ids.length === 1 ? removeOne.mutate(ids[0]!) : removeMany.mutate(ids))}
        onClose={() => setRemoving(null)}
      />
    </Paper>
  );
}
