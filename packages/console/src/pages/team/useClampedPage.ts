import { useEffect } from "react";
import type { ListParams } from "../../components";

/**
 * Back to the last page that has rows when the current one empties (its last rows were revoked or
 * deleted, or a stale link points past the end), instead of an empty state with rows elsewhere.
 */
export function useClampedPage(
  list: Pick<ListParams<string>, "page" | "setPage">,
  envelope: { data: unknown[]; total_pages: number } | undefined,
) {
  const { page, setPage } = list;
  useEffect(() => {
    if (envelope && envelope.data.length === 0 && page > 1) setPage(Math.max(1, envelope.total_pages));
  }, [envelope, page, setPage]);
}
