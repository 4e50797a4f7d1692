import { Table, VisuallyHidden, type TableProps, type TableThProps } from "@mantine/core";
import { isValidElement, type ReactNode } from "react";

/** A column's heading, or the heading with its cell props (`{ label: "Requests", ta: "right" }`). */
export type ListColumn = ReactNode | ({ label: ReactNode } & Omit<TableThProps, "children">);

const isSpec = (c: ListColumn): c is { label: ReactNode } & Omit<TableThProps, "children"> =>
  typeof c === "object" && c !== null && !isValidElement(c) && "label" in c;

/**
 * A list's table: the heading row of `columns` (and, with `actions`, a last column for the row's
 * buttons, named "Actions" for screen readers) above the rows (`children`, `<Table.Tr>`s).
 */
export function ListTable({
  columns,
  actions,
  children,
  ...table
}: { columns: ListColumn[]; actions?: boolean; children: ReactNode } & Omit<TableProps, "children">) {
  return (
    <Table {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c, i) => {
            if (!isSpec(c)) return <Table.Th key={i}>{c}</Table.Th>;
            const { label, ...th } = c;
            return (
              <Table.Th key={i} {...th}>
                {label}
              </Table.Th>
            );
          })}
          {actions && (
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}
