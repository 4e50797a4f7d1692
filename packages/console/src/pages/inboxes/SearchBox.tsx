import { TextInput, type TextInputProps } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import type { ListParams } from "../../components";

/**
 * The search box of the inbox list and of an inbox's mail: its text is the list's `?q=`, written
 * 300 ms after the typing pauses (a search back to page 1), and it follows the URL when that
 * changes elsewhere (the back button, a "Clear the search" action).
 */
export function SearchBox({
  params: list,
  ...input
}: { params: Pick<ListParams<"q">, "filters" | "setFilter"> } & Omit<TextInputProps, "value" | "onChange" | "type" | "leftSection">) {
  const q = list.filters.q ?? "";
  const [search, setSearch] = useState(q);
  useEffect(() => {
    if (search.trim() === q) return;
    const t = setTimeout(() => list.setFilter("q", search.trim() || undefined), 300);
    return () => clearTimeout(t);
  }, [search]);
  useEffect(() => setSearch(q), [q]);
  return (
    <TextInput
      type="search"
      leftSection={<IconSearch size={16} aria-hidden />}
      {...input}
      value={search}
      onChange={(e) => setSearch(e.currentTarget.value)}
    />
  );
}
