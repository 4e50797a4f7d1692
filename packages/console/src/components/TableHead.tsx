import { Table, VisuallyHidden, type TableThProps } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A list table's header row: a cell per column (a label, or a label with the cell's props, such
 * as `ta: "right"` for numbers), then, with `actions`, the row buttons' column, named for
 * assistive technology only ("Actions").
 */
export function TableHead({
  columns,
  actions = false,
}: {
  columns: Array<ReactNode | ({ label: ReactNode } & TableThProps)>;
  actions?: boolean;
}) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c, i) =>
          c !== null && typeof c === "object" && "label" in c ? (
            <Table.Th key={i} {...{ ...c, label: undefined }}>
              {c.label}
            </Table.Th>
          ) : (
            <Table.Th key={i}>{c}</Table.Th>
          ),
        )}
        {actions && (
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}
