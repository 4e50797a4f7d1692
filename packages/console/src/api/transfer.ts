// Server state of the transfer dialog (components/TransferModal), shared by the teams and domains areas.
import { transferKeys } from "./keys";
import { useApiQuery } from "./query";

/** The orgs a team or domain may move to, by name or slug (`GET /admin/orgs`, system admins only). */
export function useTransferTargets(search: string, enabled: boolean) {
  return useApiQuery(
    transferKeys.orgs(search),
    (bb, signal) => bb.api.GET("/admin/orgs", { params: { query: { q: search || undefined, per_page: 50 } }, signal }),
    { enabled },
  );
}
