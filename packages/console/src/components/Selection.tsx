import { Checkbox } from "@mantine/core";
import { useState } from "react";

/** The rows ticked for a bulk action, by id; `ids` are the rows on the page now (the header box ticks them all). */
export interface Selection {
  ids: string[];
  size: number;
  has: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Every row on the page, or none when all are ticked. */
  toggleAll: () => void;
  clear: () => void;
  remove: (id: string) => void;
  allSelected: boolean;
  someSelected: boolean;
}

export function useSelection(pageIds: string[]): Selection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  return {
    ids: [...selected],
    size: selected.size,
    has: (id) => selected.has(id),
    toggle: (id) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    toggleAll: () => setSelected(allSelected ? new Set() : new Set(pageIds)),
    clear: () => setSelected(new Set()),
    remove: (id) => setSelected((s) => new Set([...s].filter((x) => x !== id))),
    allSelected,
    someSelected: selected.size > 0 && !allSelected,
  };
}

/** The header box of a bulk-select table: ticks every row of the page, half-ticked when some are. */
export function SelectAllCheckbox({ selection, label }: { selection: Selection; label: string }) {
  return (
    <Checkbox aria-label={label} checked={selection.allSelected} indeterminate={selection.someSelected} onChange={selection.toggleAll} />
  );
}

/** One row's box of a bulk-select table. */
export function SelectRowCheckbox({ selection, id, label }: { selection: Selection; id: string; label: string }) {
  return <Checkbox aria-label={label} checked={selection.has(id)} onChange={() => selection.toggle(id)} />;
}

/** "Delete selected (3)": a bulk action's label with the count when something is ticked. */
export const withCount = (label: string, selection: Selection) => (selection.size ? `${label} (${selection.size})` : label);
