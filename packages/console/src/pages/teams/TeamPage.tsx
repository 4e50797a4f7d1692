import { Alert, Anchor, Badge, Button, List, Skeleton, Stack, Text } from "@mantine/core";
import { IconArchive, IconArrowLeft, IconDoorExit, IconRestore, IconTransfer, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { useIsSystemAdmin, useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole, Team } from "../../api/workspace";
import { ApiErrorAlert, ConfirmModal, PageHeader, Notice } from "../../components";
import { AssignmentsSection } from "./AssignmentsSection";
import { teamsKeys } from "./keys";
import { MembersSection } from "./MembersSection";
import { OrgGate } from "../../components/OrgGate";
import { SettingsSection } from "./SettingsSection";
import { useTeamPermissions } from "../../api/team-permissions";
import { TransferModal } from "../../components/TransferModal";
import { useTeam, useArchiveTeam, useRestoreTeam, useLeaveTeam, useTransferTeam, useTeamImpact, useDeleteTeam } from "./api";

export default function TeamPage() {
  return <OrgGate title="Team">{(org) => <TeamView org={org} />}</OrgGate>;
}

type Pending = "archive" | "restore" | "delete" | "leave" | "transfer" | null;

function TeamView({ org }: { org: OrgWithRole }) {
  const { teamId = "" } = useParams();
  const path = { orgId: org.id, teamId };
  const navigate = useNavigate();
  const orgPerms = useOrgPermissions(org.id);
  const teamPerms = useTeamPermissions(org.id, teamId);
  const isAdmin = useIsSystemAdmin();
  const q = useTeam({ orgId: org.id, teamId, path });
  const [pending, setPending] = useState<Pending>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const invalidates = [teamsKeys.all, workspaceKeys.teams(org.id), workspaceKeys.teamMembership(org.id, teamId)];
  const close = () => setPending(null);
  const archive = useArchiveTeam(
    { path },
    {
      invalidates,
      onSuccess: (t) => {
        close();
        setNotice(`${t.name} is archived: it is read-only until restored.`);
      },
    },
  );
  const restore = useRestoreTeam(
    { path },
    {
      invalidates,
      onSuccess: (t) => {
        close();
        setNotice(`${t.name} is restored.`);
      },
    },
  );
  // what is gone afterwards is not refetched: only the lists that showed it
  const gone = [teamsKeys.lists(org.id), workspaceKeys.teams(org.id)];
  const leave = useLeaveTeam(
    { path },
    {
      invalidates: gone,
      onSuccess: () => navigate("/teams", { replace: true }),
    },
  );
  const transfer = useTransferTeam({ path }, { invalidates: gone, onSuccess: () => navigate("/teams", { replace: true }) });

  if (q.error && !q.data)
    return (
      <>
        <PageHeader title="Team" />
        <ApiErrorAlert error={q.error} />
        <BackLink />
      </>
    );
  if (!q.data) return <Skeleton h={240} aria-label="Loading the team" />;
  const team = q.data;
  const canManage = orgPerms.can("org.teams.manage");
  return (
    <>
      <BackLink />
      <PageHeader
        title={team.name}
        description={
          <>
            {team.description ?? `${team.member_count} members, ${team.domain_count} domains, ${team.active_inboxes} active inboxes.`}
            {team.is_archived && (
              <Badge color="gray" variant="light" ml="xs">
                Archived
              </Badge>
            )}
          </>
        }
        actions={
          <>
            {canManage && !team.is_archived && (
              <Button variant="default" leftSection={<IconArchive size={16} />} onClick={() => setPending("archive")}>
                Archive
              </Button>
            )}
            {canManage && team.is_archived && (
              <Button
                variant="default"
                leftSection={<IconRestore size={16} />}
                loading={restore.isPending}
                onClick={() => restore.mutate(undefined)}
              >
                Restore
              </Button>
            )}
            {teamPerms.myRole && (
              <Button variant="default" leftSection={<IconDoorExit size={16} />} onClick={() => setPending("leave")}>
                Leave team
              </Button>
            )}
            {isAdmin && (
              <Button variant="default" leftSection={<IconTransfer size={16} />} onClick={() => setPending("transfer")}>
                Transfer
              </Button>
            )}
            {orgPerms.can("org.teams.delete") && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setPending("delete")}>
                Delete team
              </Button>
            )}
          </>
        }
      />
      {notice && (
        <Notice onClose={() => setNotice(null)} mb="sm">
          {notice}
        </Notice>
      )}
      <ApiErrorAlert error={restore.error} />
      {team.is_archived && (
        <Alert color="gray" mb="md" title="This team is archived">
          It keeps its data, but takes no new inboxes, members, keys, webhooks or domains until it is restored.
        </Alert>
      )}
      <Stack gap="lg">
        <MembersSection org={org} team={team} perms={teamPerms} />
        <AssignmentsSection org={org} team={team} perms={teamPerms} />
        <SettingsSection org={org} team={team} perms={teamPerms} />
      </Stack>

      <ConfirmModal
        opened={pending === "archive"}
        title={`Archive ${team.name}?`}
        confirmLabel="Archive"
        color="orange.9"
        loading={archive.isPending}
        error={archive.error}
        onConfirm={() => archive.mutate(undefined)}
        onClose={close}
      >
        The team becomes read-only: no new inboxes, webhooks, keys, members or domains. Its data stays, and it can be restored.
      </ConfirmModal>
      <ConfirmModal
        opened={pending === "leave"}
        title={`Leave ${team.name}?`}
        confirmLabel="Leave team"
        loading={leave.isPending}
        error={leave.error}
        onConfirm={() => leave.mutate(undefined)}
        onClose={close}
      >
        You lose access to the team's inboxes, keys and webhooks. A team's last lead cannot leave.
      </ConfirmModal>
      {pending === "delete" && <DeleteTeamModal orgId={org.id} team={team} onClose={close} />}
      <TransferModal
        opened={pending === "transfer"}
        title={`Transfer ${team.name}`}
        fromOrgId={org.id}
        loading={transfer.isPending}
        error={transfer.error}
        onTransfer={(target) => transfer.mutate(target)}
        onClose={close}
      >
        The team moves to another organization. Members who do not belong to that organization are removed, and its domain assignments are
        dropped.
      </TransferModal>
    </>
  );
}

function BackLink() {
  return (
    <Anchor component={Link} to="/teams" size="sm" mb="xs" display="inline-flex" style={{ alignItems: "center", gap: 4 }}>
      <IconArrowLeft size={14} /> All teams
    </Anchor>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Shows `GET …/impact` first; the delete button comes only with the figures. */
function DeleteTeamModal({ orgId, team, onClose }: { orgId: string; team: Team; onClose: () => void }) {
  const navigate = useNavigate();
  const path = { orgId, teamId: team.id };
  const impact = useTeamImpact({ orgId, teamId: team.id, path });
  const del = useDeleteTeam(
    { path },
    {
      invalidates: [teamsKeys.lists(orgId), workspaceKeys.teams(orgId)],
      onSuccess: () => navigate("/teams", { replace: true }),
    },
  );
  const i = impact.data;
  return (
    <ConfirmModal
      opened
      title={`Delete ${team.name}?`}
      confirmLabel="Delete team"
      disabled={!i}
      loading={del.isPending}
      error={del.error}
      onConfirm={() => del.mutate(undefined)}
      onClose={onClose}
      details={
        <>
          <ApiErrorAlert error={impact.error} />
          {!i ? (
            !impact.error && <Skeleton h={120} aria-label="Loading what deleting removes" />
          ) : (
            <>
              <Text size="sm">This cannot be undone. Deleting the team removes:</Text>
              <List size="sm" aria-label="What deleting removes">
                <List.Item>{plural(i.member_count, "membership", "memberships")} (the accounts stay)</List.Item>
                <List.Item>
                  {plural(i.inbox_count, "inbox", "inboxes")} ({i.active_inbox_count} active) with{" "}
                  {plural(i.email_count, "email", "emails")}
                </List.Item>
                <List.Item>{plural(i.domain_assignment_count, "domain assignment", "domain assignments")} (the domains stay)</List.Item>
                <List.Item>{plural(i.webhook_count, "webhook", "webhooks")}</List.Item>
                <List.Item>{plural(i.api_key_count, "API key", "API keys")}</List.Item>
              </List>
            </>
          )}
        </>
      }
    />
  );
}
