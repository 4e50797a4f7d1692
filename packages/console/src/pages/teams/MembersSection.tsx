import {
  ActionIcon,
  Alert,
  Button,
  Group,
  List,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconTrash, IconUserMinus, IconUserPlus } from "@tabler/icons-react";
import { useState } from "react";
import { workspaceKeys } from "../../api/keys";
import type { OrgWithRole, Team } from "../../api/workspace";
import {
  ApiErrorAlert,
  DialogActions,
  ListPagination,
  SelectAllCheckbox,
  SelectRowCheckbox,
  Time,
  useListParams,
  useSelection,
  withCount,
  TableScroll,
} from "../../components";
import { parseAddresses } from "./addresses";
import { teamsKeys } from "./keys";
import type { TeamPermissions } from "./team-permissions";
import {
  useRoles,
  useTeamMembers,
  useChangeTeamRole,
  useRemoveMember,
  useRemoveMembers,
  useMemberSuggestions,
  useAddMember,
  useAddMembers,
} from "./api";

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
  const [notice, setNotice] = useState<{ text: string; details: string[] } | null>(null);
  const invalidates = [teamsKeys.all, workspaceKeys.teams(org.id)];
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
      {notice && (
        <Alert
          role="status"
          color="teal"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
          mb="sm"
          title={notice.text}
        >
          {notice.details.length > 0 && (
            <List size="sm">
              {notice.details.map((d) => (
                <List.Item key={d}>{d}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      <ApiErrorAlert error={q.error ?? changeRole.error} />
      {q.isPending ? (
        <Skeleton h={120} aria-label="Loading members" />
      ) : (
        <TableScroll label="Team members" minWidth={560}>
          <Table striped verticalSpacing="xs" aria-label="Team members">
            <Table.Thead>
              <Table.Tr>
                {canManage && (
                  <Table.Th w={40}>
                    <SelectAllCheckbox selection={selection} label="Select every member on this page" />
                  </Table.Th>
                )}
                <Table.Th>Member</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Joined</Table.Th>
                {canManage && <Table.Th w={48} aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={m.id}>
                  {canManage && (
                    <Table.Td>
                      <SelectRowCheckbox selection={selection} id={m.user_id} label={`Select ${m.email}`} />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {m.display_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {m.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {canRole ? (
                      <Select
                        aria-label={`Role of ${m.email}`}
                        data={roles.some((r) => r.value === m.role) ? roles : [...roles, { value: m.role, label: m.role }]}
                        value={m.role}
                        allowDeselect={false}
                        w={160}
                        onChange={(role) => role && role !== m.role && changeRole.mutate({ userId: m.user_id, role })}
                      />
                    ) : (
                      <Text size="sm">{roles.find((r) => r.value === m.role)?.label ?? m.role}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Time value={m.created_at} />
                  </Table.Td>
                  {canManage && (
                    <Table.Td>
                      <Tooltip label={`Remove ${m.email}`}>
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.email}`} onClick={() => setRemoving([m.user_id])}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <ListPagination params={list} envelope={q.data} label="Member pages" />
      {!canManage && !perms.isLoading && (
        <Text size="sm" c="dimmed" mt="sm">
          {team.is_archived
            ? "An archived team takes no member changes."
            : "Only the team's leads and the organization's owners and admins change its members."}
        </Text>
      )}
      <AddMembersModal org={org} team={team} opened={adding} roles={roles} onClose={() => setAdding(false)} onDone={setNotice} />
      <Modal
        closeButtonProps={{ "aria-label": "Close" }}
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing?.length === 1 ? `Remove ${emailOf(removing[0]!)}?` : `Remove ${removing?.length ?? 0} members?`}
      >
        <Stack>
          <Text size="sm">They lose access to the team's inboxes, keys and webhooks; their accounts and org membership stay.</Text>
          <ApiErrorAlert error={removeError} />
          <DialogActions
            confirmLabel="Remove"
            color="red.9"
            loading={removeOne.isPending || removeMany.isPending}
            onConfirm={() => removing && (removing.length === 1 ? removeOne.mutate(removing[0]!) : removeMany.mutate(removing))}
            onCancel={() => setRemoving(null)}
          />
        </Stack>
      </Modal>
    </Paper>
  );
}

function AddMembersModal({
  org,
  team,
  opened,
  roles,
  onClose,
  onDone,
}: {
  org: OrgWithRole;
  team: Team;
  opened: boolean;
  roles: { value: string; label: string }[];
  onClose: () => void;
  onDone: (n: { text: string; details: string[] }) => void;
}) {
  const path = { orgId: org.id, teamId: team.id };
  const [text, setText] = useState("");
  const [role, setRole] = useState("member");
  const suggestions = useMemberSuggestions({ orgId: org.id, teamId: team.id }, { enabled: opened });
  const done = () => {
    setText("");
    onClose();
  };
  const addOne = useAddMember(
    { path },
    {
      invalidates: [teamsKeys.all, workspaceKeys.teams(org.id)],
      onSuccess: (m) => {
        done();
        onDone({ text: `Added ${m.email}.`, details: [] });
      },
    },
  );
  const addMany = useAddMembers(
    { path },
    {
      invalidates: [teamsKeys.all, workspaceKeys.teams(org.id)],
      onSuccess: (r) => {
        done();
        onDone({
          text: `Added ${r.added.length} ${r.added.length === 1 ? "member" : "members"}.`,
          details: r.skipped.map((s) => `${s.identifier}: skipped (${s.reason.replaceAll("_", " ")})`),
        });
      },
    },
  );
  const addresses = parseAddresses(text);
  const candidates = suggestions.data?.data ?? [];
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title="Add members" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (addresses.length === 1) addOne.mutate({ email: addresses[0]!, role });
          else addMany.mutate({ emails: addresses, role });
        }}
      >
        <Stack>
          <Textarea
            label="Email addresses"
            description="One per line, or separated by commas (up to 50). Each must already be a member of the organization."
            autosize
            minRows={3}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-autofocus
          />
          {candidates.length > 0 && (
            <Stack gap={4}>
              <Text size="sm">Members of the organization not in this team:</Text>
              <Group gap="xs">
                {candidates.map((c) => (
                  <Button
                    key={c.user_id}
                    size="compact-sm"
                    variant={addresses.includes(c.email) ? "filled" : "default"}
                    aria-pressed={addresses.includes(c.email)}
                    onClick={() =>
                      setText((t) =>
                        addresses.includes(c.email)
                          ? parseAddresses(t)
                              .filter((a) => a !== c.email)
                              .join("\n")
                          : [...parseAddresses(t), c.email].join("\n"),
                      )
                    }
                  >
                    {c.email}
                  </Button>
                ))}
              </Group>
            </Stack>
          )}
          <Select label="Role" data={roles} value={role} allowDeselect={false} onChange={(v) => v && setRole(v)} />
          <ApiErrorAlert error={addOne.error ?? addMany.error ?? suggestions.error} />
          <DialogActions
            confirmLabel={addresses.length > 1 ? `Add ${addresses.length} members` : "Add member"}
            disabled={addresses.length === 0 || addresses.length > 50}
            loading={addOne.isPending || addMany.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
