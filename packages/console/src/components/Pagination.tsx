import { Group, Pagination, Text } from "@mantine/core";
import { useCallback, useEffect, useMemo } from "react";
import { useSearchParams } from "react-router";
import { pageFrom } from "../lib/page-param";

export interface ListParams<F extends string> {
  /** 1-based, from `?page=` */
  page: number;
  perPage: number;
  /** The filters named in `useListParams`, from the URL (absent: undefined). */
  filters: Record<F, string | undefined>;
  setPage: (page: number) => void;
  /** Sets (or with ""/undefined removes) one filter; the list goes back to page 1. */
  setFilter: (name: F, value: string | undefined) => void;
}

/**
 * A list's page and filters, kept in the URL (`?page=2&status=active&search=qa`), so a reload, a
 * shared link and the back button show the same list. Pass `page`/`perPage` to the API call and
 * include them and `filters` in the query key.
 */
export function useListParams<F extends string = never>(
  options: { perPage?: number; filters?: readonly F[]; /** the page's URL parameter when a page has two lists */ pageParam?: string } = {},
): ListParams<F> {
  const [params, setParams] = useSearchParams();
  const names = options.filters ?? [];
  const pageParam = options.pageParam ?? "page";
  const page = pageFrom(params, pageParam);
  const perPage = Math.min(100, Math.max(1, Number.parseInt(params.get("per_page") ?? "", 10) || options.perPage || 20));
  // one string for the filters' values, so `filters` keeps its identity while they stay the same
  const key = JSON.stringify(names.map((n) => [n, params.get(n) ?? undefined]));
  const filters = useMemo(() => Object.fromEntries(JSON.parse(key) as [F, string | undefined][]) as Record<F, string | undefined>, [key]);
  const setPage = useCallback(
    (p: number) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (p <= 1) next.delete(pageParam);
        else next.set(pageParam, String(p));
        return next;
      }),
    [setParams, pageParam],
  );
  const setFilter = useCallback(
    (name: F, value: string | undefined) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(name, value);
          else next.delete(name);
          next.delete(pageParam);
          return next;
        },
        { replace: true },
      ),
    [setParams, pageParam],
  );
  return { page, perPage, filters, setPage, setFilter };
}

/**
 * Back to the last page that has rows when the current one empties (its last rows were revoked,
 * deleted or read away, or a stale link points past the end), instead of an empty state with rows
 * elsewhere. Call it with the list's params and the API's page envelope.
 */
export function useClampedPage(
  params: Pick<ListParams<string>, "page" | "setPage">,
  envelope: { data: unknown[]; total_pages: number } | undefined,
): void {
  const { page, setPage } = params;
  useEffect(() => {
    if (envelope && envelope.data.length === 0 && page > 1) setPage(Math.max(1, envelope.total_pages));
  }, [envelope, page, setPage]);
}

/** The pager under a list: the API's page envelope (`page`, `total_pages`, `total`) in, `?page=` out. */
export function ListPagination({
  params,
  envelope,
  label = "Pages",
}: {
  params: Pick<ListParams<string>, "page" | "setPage">;
  envelope: { page: number; total_pages: number; total: number } | undefined;
  label?: string;
}) {
  if (!envelope || envelope.total_pages <= 1) return null;
  return (
    <Group justify="space-between" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed">
        {envelope.total} in all
      </Text>
      <nav aria-label={label}>
        <Pagination
          total={envelope.total_pages}
          value={params.page}
          onChange={params.setPage}
          getItemProps={(p) => ({ "aria-label": `Page ${p}`, "aria-current": p === params.page ? "page" : undefined })}
          getControlProps={(control) => ({ "aria-label": `${control} page` })}
          size="sm"
        />
      </nav>
    </Group>
  );
}
