import { Alert, Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconSearch, IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useState } from "react";
import { AddMemberBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { useContractForm } from "../../lib/contract-form";
import { workspaceKeys } from "../../api/keys";
import { useUser } from "../../api/session";
import { ApiErrorAlert, ConfirmModal, DialogActions, EmptyState, Time, useListParams, ListView, ListSearch } from "../../components";
import { orgsKeys } from "./keys";
import { OrgFrame, type OrgScope } from "./OrgFrame";
import { assignableRoles, mayDeactivate } from "./ranks";
import { roleLabel, useOrgRoles, type Role } from "./roles";
import { useMembers, useChangeMemberRole, useDeactivateMember, useAddMember, type Member } from "./api";
import { ListTable } from "../../components/ListTable";

/** `/orgs/:orgId/members`: list and search (`GET /orgs/:id/members?q=&role=`), add, change role, deactivate. */
export default function MembersPage() {
  return <OrgFrame tab="members">{(scope) => <Members scope={scope} />}</OrgFrame>;
}

function Members({ scope }: { scope: OrgScope }) {
  const { orgId, perms, myRole } = scope;
  const me = useUser();
  const roles = useOrgRoles();
  const list = useListParams({ filters: ["q", "role"] as const });
  const [adding, setAdding] = useState(false);
  const [leaving, setLeaving] = useState<Member | null>(null);
  const q = useMembers({ orgId, list, listPerPage: list.perPage, listFilters: list.filters });
  const invalidates = [orgsKeys.members(orgId), workspaceKeys.membership(orgId), workspaceKeys.orgs()];
  const changeRole = useChangeMemberRole(
    { orgId },
    { invalidates, onSuccess: (m) => notifications.show({ message: `${m.email} is now ${roleLabel(roles, m.role)}` }) },
  );
  const deactivate = useDeactivateMember(
    { orgId },
    {
      invalidates,
      onSuccess: (_, m) => {
        setLeaving(null);
        notifications.show({ message: `${m.email} no longer belongs to the organization` });
      },
    },
  );

  const canRole = perms.can("org.members.role");
  const canRemove = perms.can("org.members.remove");
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <ListSearch
            params={list}
            filter="q"
            debounce={300}
            aria-label="Search members"
            placeholder="Name or email"
            leftSection={<IconSearch size={16} />}
          />
          <Select
            aria-label="Role"
            placeholder="Every role"
            clearable
            w={160}
            data={roles.map((r) => ({ value: r.value, label: r.label }))}
            value={list.filters.role ?? null}
            onChange={(v) => list.setFilter("role", v ?? undefined)}
          />
        </Group>
        {perms.can("org.members.add") && (
          <Button leftSection={<IconUserPlus size={16} />} variant="default" onClick={() => setAdding(true)}>
            Add existing user
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        A role can be changed only by someone who ranks above the member, and never to a role above one&apos;s own. Anyone may lower their
        own role or leave.
      </Text>
      <ListView
        query={q}
        error={q.error ?? changeRole.error}
        loading={{ label: "Loading members", height: 160 }}
        empty={
          <EmptyState title="No member matches" icon={<IconUsers size={28} stroke={1.5} />}>
            Try another name, email or role.
          </EmptyState>
        }
        table={{ label: "Members", minWidth: 720 }}
        pagination={{ params: list, label: "Member pages" }}
      >
        {(rows) => (
          <ListTable verticalSpacing="xs" aria-label="Members" columns={["Member", "Role", "Last sign-in", "Member since"]} actions>
            {rows.map((m) => {
              const self = m.user_id === me.id;
              const rankOpts = { self, bypass: me.is_system_admin };
              const offered = canRole || self ? assignableRoles(roles, myRole, m.role, rankOpts) : [];
              const removable = self || (canRemove && mayDeactivate(roles, myRole, m.role, rankOpts));
              return (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    <Text fw={500}>
                      {m.display_name}
                      {self && (
                        <Text span c="dimmed" size="sm">
                          {" "}
                          (you)
                        </Text>
                      )}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {m.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <RoleCell
                      member={m}
                      roles={roles}
                      offered={offered}
                      busy={changeRole.isPending && changeRole.variables?.member.id === m.id}
                      onChange={(role) => changeRole.mutate({ member: m, role })}
                    />
                  </Table.Td>
                  <Table.Td>
                    {m.last_login_at ? (
                      <Time value={m.last_login_at} />
                    ) : (
                      <Text size="sm" c="dimmed">
                        never
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Time value={m.created_at} mode="absolute" />
                  </Table.Td>
                  <Table.Td ta="right">
                    {removable && (
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() => setLeaving(m)}
                        aria-label={self ? "Leave the organization" : `Deactivate ${m.email}`}
                      >
                        {self ? "Leave" : "Deactivate"}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        )}
      </ListView>
      <ConfirmModal
        opened={leaving !== null}
        title={leaving?.user_id === me.id ? "Leave this organization?" : "Deactivate this member?"}
        confirmLabel={leaving?.user_id === me.id ? "Leave" : "Deactivate"}
        loading={deactivate.isPending}
        error={deactivate.error}
        onConfirm={() => leaving && deactivate.mutate(leaving)}
        onClose={() => {
          setLeaving(null);
          deactivate.reset();
        }}
      >
        {leaving?.email} loses the membership of this organization and of every one of its teams. The account itself stays.
      </ConfirmModal>
      <AddMemberModal opened={adding} orgId={orgId} roles={roles} myRole={myRole} onClose={() => setAdding(false)} />
    </Stack>
  );
}

function RoleCell({
  member,
  roles,
  offered,
  busy,
  onChange,
}: {
  member: Member;
  roles: Role[];
  offered: Role[];
  busy: boolean;
  onChange: (role: string) => void;
}) {
  if (offered.length === 0 || (offered.length === 1 && offered[0]!.value === member.role))
    return <Badge variant="light">{roleLabel(roles, member.role)}</Badge>;
  const data = offered.map((r) => ({ value: r.value, label: r.label }));
  if (!data.some((d) => d.value === member.role)) data.unshift({ value: member.role, label: roleLabel(roles, member.role) });
  return (
    <Select
      aria-label={`Role of ${member.email}`}
      size="xs"
      w={150}
      data={data}
      value={member.role}
      disabled={busy}
      allowDeselect={false}
      onChange={(v) => v && v !== member.role && onChange(v)}
    />
  );
}

/** Stays mounted while closed, so closing it gives the focus back to what opened it; its body (state, queries) mounts on each opening. */
function AddMemberModal({ opened, ...body }: { opened: boolean } & AddMemberProps) {
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={body.onClose} title="Add an existing user">
      <AddMemberForm {...body} />
    </Modal>
  );
}

interface AddMemberProps {
  orgId: string;
  roles: Role[];
  myRole: string | undefined;
  onClose: () => void;
}

const memberBody = (v: { user_id: string; role: string }) => ({ user_id: v.user_id.trim(), role: v.role });

function AddMemberForm({ orgId, roles, myRole, onClose }: AddMemberProps) {
  const me = useUser();
  const offered = assignableRoles(roles, myRole, "", { bypass: me.is_system_admin });
  const form = useContractForm(AddMemberBody, { user_id: "", role: offered.at(-1)?.value ?? "" }, { toBody: memberBody });
  const add = useAddMember(
    { orgId },
    {
      invalidates: [orgsKeys.members(orgId)],
      onSuccess: (m) => {
        notifications.show({ message: `${m.email} added` });
        onClose();
      },
    },
  );
  const submit = form.onSubmit((v) => add.mutate(memberBody(v)));
  return (
    <form onSubmit={submit}>
      <Stack>
        <Alert variant="light" color="blue">
          Adds an account that already exists on this platform, by its user id, without an invitation. To bring in someone by email, send an
          invite instead.
        </Alert>
        <TextInput label="User id" required spellCheck={false} {...form.getInputProps("user_id")} />
        <Select
          label="Role"
          required
          data={offered.map((r) => ({ value: r.value, label: r.label }))}
          {...form.getInputProps("role")}
          allowDeselect={false}
        />
        <ApiErrorAlert error={add.error} />
        <DialogActions confirmLabel="Add" loading={add.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
