import { ActionIcon, Select, Table, Text, Tooltip } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { SelectAllCheckbox, SelectRowCheckbox, Time, type Selection, TableScroll } from "../../components";
import type { useTeamMembers } from "./api";

type TeamMember = NonNullable<ReturnType<typeof useTeamMembers>["data"]>["data"][number];

/** The team's members of one page: a checkbox each (for the bulk remove), the role picker, the remove button. */
export function TeamMemberTable({
  rows,
  roles,
  selection,
  canManage,
  canRole,
  onChangeRole,
  onRemove,
}: {
  rows: TeamMember[];
  roles: { value: string; label: string }[];
  selection: Selection;
  canManage: boolean;
  canRole: boolean;
  onChangeRole: (userId: string, role: string) => void;
  onRemove: (userId: string) => void;
}) {
  return (
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
                    onChange={(role) => role && role !== m.role && onChangeRole(m.user_id, role)}
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
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.email}`} onClick={() => onRemove(m.user_id)}>
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
  );
}
