import { Center, Loader, Skeleton, TextInput, type TextInputProps } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { useState, type ReactNode } from "react";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ListPagination, type ListParams } from "./Pagination";
import { TableScroll } from "./TableScroll";

/** The API's page envelope, as every list endpoint answers. */
export interface PageEnvelope<T> {
  data: T[];
  page: number;
  total_pages: number;
  total: number;
}

/**
 * A search box whose text is one of the list's URL filters (`?q=`): a reload or a shared link
 * shows the same search, and a new search goes back to page 1. `debounce` (ms) waits for the
 * typing to pause before the URL, and so the request, changes.
 */
export function ListSearch<F extends string>({
  params,
  filter,
  debounce = 0,
  ...input
}: { params: Pick<ListParams<F>, "filters" | "setFilter">; filter: F; debounce?: number } & Omit<
  TextInputProps,
  "value" | "defaultValue" | "onChange"
>) {
  const [text, setText] = useState(params.filters[filter] ?? "");
  const apply = useDebouncedCallback((value: string) => params.setFilter(filter, value.trim() || undefined), debounce);
  return (
    <TextInput
      {...input}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        if (debounce > 0) apply(e.currentTarget.value);
        else params.setFilter(filter, e.currentTarget.value.trim() || undefined);
      }}
    />
  );
}

/**
 * The body of a list page, under its header and filters: the API's error, a placeholder while the
 * first page loads, `empty` (an `<EmptyState>` with its action) when there are no rows, else the
 * rows (`children`), inside the focusable sideways scroll when `table` is given, and the pager.
 */
export function ListView<T>({
  query,
  error,
  loading,
  empty,
  table,
  pagination,
  children,
}: {
  query: { isPending: boolean; error: unknown; data?: PageEnvelope<T> | undefined };
  /** what the error alert shows; the list's own error by default (pass the page's mutation errors beside it) */
  error?: unknown;
  /** the placeholder's accessible name ("Loading domains"); `height` for a skeleton of that height, else a spinner */
  loading: { label: string; height?: number };
  empty: ReactNode;
  /** the table's region name ("Domains, scrolls sideways") and the width under which it scrolls */
  table?: { label: string; minWidth: number };
  /** the pager; `label` names its navigation ("Domain pages") */
  pagination?: { params: Pick<ListParams<string>, "page" | "setPage">; label?: string };
  /** the rows, and the page envelope they came in */
  children: (rows: T[], page: PageEnvelope<T>) => ReactNode;
}) {
  const page = query.data;
  const rows = page?.data;
  return (
    <>
      <ApiErrorAlert error={error === undefined ? query.error : error} />
      {query.isPending ? (
        loading.height !== undefined ? (
          <Skeleton h={loading.height} aria-label={loading.label} />
        ) : (
          <Center py="xl">
            <Loader aria-label={loading.label} />
          </Center>
        )
      ) : !page || !rows ? null : rows.length === 0 ? (
        empty
      ) : table ? (
        <TableScroll label={table.label} minWidth={table.minWidth}>
          {children(rows, page)}
        </TableScroll>
      ) : (
        children(rows, page)
      )}
      {pagination && <ListPagination params={pagination.params} envelope={query.data} label={pagination.label} />}
    </>
  );
}
