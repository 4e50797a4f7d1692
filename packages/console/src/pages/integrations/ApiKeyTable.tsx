import { Checkbox, Table, VisuallyHidden } from "@mantine/core";
import { TableScroll, useNow } from "../../components";
import { ApiKeyRow } from "./ApiKeyRow";
import { keyStatus, type ApiKey } from "./key-status";

export interface KeySelection {
  selected: Set<string>;
  toggle: (id: string) => void;
  allSelected: boolean;
  someSelected: boolean;
  selectable: ApiKey[];
  setSelected: (ids: Set<string>) => void;
}

/** The team's keys, a page at a time, with a checkbox each for the bulk revoke. */
export function ApiKeyTable({
  rows,
  selection: { selected, toggle, allSelected, someSelected, selectable, setSelected },
  onRotate,
  onToggle,
  onRevoke,
}: {
  rows: ApiKey[];
  selection: KeySelection;
  onRotate: (key: ApiKey) => void;
  onToggle: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
}) {
  const now = useNow();
  return (
    <TableScroll label="API keys" minWidth={860}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select every key on this page"
                checked={allSelected}
                indeterminate={someSelected && !allSelected}
                disabled={selectable.length === 0}
                onChange={() => setSelected(allSelected ? new Set() : new Set(selectable.map((k) => k.id)))}
              />
            </Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Scopes</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Requests</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((key) => {
            const status = keyStatus(key, now);
            return (
              <ApiKeyRow
                key={key.id}
                apiKey={key}
                status={status}
                selected={selected.has(key.id)}
                onSelect={() => toggle(key.id)}
                onRotate={() => onRotate(key)}
                onToggle={() => onToggle(key)}
                onRevoke={() => onRevoke(key)}
              />
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
