import { workspaceKeys } from "../../api/keys";
import { ActionIcon, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { IconCheck, IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import type { components } from "@burnbox/sdk";
import { useIsSystemAdmin } from "../../api/permissions";
import { ApiErrorAlert, PageHeader, TableScroll, ConfirmModal, Notice } from "../../components";
import { rolesKeys } from "./keys";
import { RoleFormModal, type Role } from "./RoleFormModal";
import { useRoles, useDeleteRole } from "./api";

type Permission = components["schemas"]["Permission"];

export default function RolesPage() {
  const isAdmin = useIsSystemAdmin();
  const q = useRoles();
  const [editing, setEditing] = useState<Role | "new" | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const del = useDeleteRole({
    invalidates: [rolesKeys.catalog(), ["teams", "roles"], ["team", "permissions"], workspaceKeys.roles()],
    onSuccess: (_r, role) => {
      setDeleting(null);
      setNotice(`The role ${role.label} is deleted.`);
    },
  });
  return (
    <>
      <PageHeader
        title="Roles"
        description="What each role may do. Organization roles apply to the whole organization; team roles to one team."
        actions={
          isAdmin && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing("new")}>
              Create role
            </Button>
          )
        }
      />
      {notice && (
        <Notice onClose={() => setNotice(null)} mb="sm">
          {notice}
        </Notice>
      )}
      <ApiErrorAlert error={q.error} />
      {q.isPending ? (
        <Skeleton h={300} aria-label="Loading roles" />
      ) : (
        q.data && (
          <Stack gap="lg">
            <Matrix
              id="org-roles"
              title="Organization roles"
              roles={q.data.org_roles}
              permissions={q.data.org_permissions}
              isAdmin={isAdmin}
              onEdit={setEditing}
              onDelete={(r) => {
                del.reset();
                setDeleting(r);
              }}
            />
            <Matrix
              id="team-roles"
              title="Team roles"
              roles={q.data.team_roles}
              permissions={q.data.team_permissions}
              isAdmin={isAdmin}
              onEdit={setEditing}
              onDelete={(r) => {
                del.reset();
                setDeleting(r);
              }}
              note="Team permissions are also the scopes of API keys: a key holds some of its creator's team permissions."
            />
          </Stack>
        )
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete the role ${deleting?.label ?? ""}?`}
        confirmLabel="Delete role"
        loading={del.isPending}
        error={del.error}
        onConfirm={() => deleting && del.mutate(deleting)}
        onClose={() => setDeleting(null)}
      >
        A role still held by someone cannot be deleted: change their role first.
      </ConfirmModal>
      {editing && q.data && (
        <RoleFormModal
          role={editing === "new" ? null : editing}
          catalog={q.data}
          onClose={() => setEditing(null)}
          onSaved={(r, created) => {
            setEditing(null);
            setNotice(`The role ${r.label} is ${created ? "created" : "saved"}.`);
          }}
        />
      )}
    </>
  );
}

/** Permissions down, roles across; a tick where the role holds the permission. */
function Matrix({
  id,
  title,
  roles,
  permissions,
  isAdmin,
  note,
  onEdit,
  onDelete,
}: {
  id: string;
  title: string;
  roles: Role[];
  permissions: Permission[];
  isAdmin: boolean;
  note?: string;
  onEdit: (r: Role) => void;
  onDelete: (r: Role) => void;
}) {
  const sorted = [...roles].sort((a, b) => b.rank - a.rank);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb={4}>
        {title}
      </Title>
      {note && (
        <Text size="sm" c="dimmed" mb="sm">
          {note}
        </Text>
      )}
      <TableScroll label="Permissions by role" minWidth={200 + sorted.length * 120}>
        <Table striped verticalSpacing={6} aria-labelledby={id}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Permission</Table.Th>
              {sorted.map((r) => (
                <Table.Th key={r.id} ta="center">
                  <Stack gap={2} align="center">
                    <Text size="sm" fw={600}>
                      {r.label}
                    </Text>
                    <Group gap={4} justify="center" wrap="nowrap">
                      <Badge size="xs" variant="light" color={r.is_system ? "gray" : "grape"}>
                        {r.is_system ? "built-in" : "custom"}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        rank {r.rank}
                      </Text>
                    </Group>
                    {isAdmin && !r.is_system && (
                      <Group gap={2} wrap="nowrap">
                        <Tooltip label={`Edit ${r.label}`}>
                          <ActionIcon size="sm" variant="subtle" aria-label={`Edit ${r.label}`} onClick={() => onEdit(r)}>
                            <IconPencil size={14} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={`Delete ${r.label}`}>
                          <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Delete ${r.label}`} onClick={() => onDelete(r)}>
                            <IconTrash size={14} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    )}
                  </Stack>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {permissions.map((p) => (
              <Table.Tr key={p.key}>
                <Table.Td>
                  <Text size="sm">{p.label}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {p.key}
                  </Text>
                </Table.Td>
                {sorted.map((r) => {
                  const has = r.permissions.includes(p.key);
                  return (
                    <Table.Td key={r.id} ta="center" aria-label={`${r.label}: ${has ? "yes" : "no"}`}>
                      {has ? (
                        <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
                      ) : (
                        <Text c="dimmed" aria-hidden>
                          –
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
