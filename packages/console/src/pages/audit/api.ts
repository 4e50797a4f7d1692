// The audit area's server state: the query hooks its pages call (never bb.api directly).
import type { paths } from "@burnbox/sdk";
import { apiQueryWith, unwrap, useApi } from "../../api/query";
import type { AuditFilters } from "./format";
import { auditKeys } from "./keys";

export type AuditExportQuery = paths["/orgs/{orgId}/audit/export"]["get"]["parameters"]["query"];
export type AuditQuery = paths["/orgs/{orgId}/audit"]["get"]["parameters"]["query"];

/** Whose log: one org's (`GET /orgs/{orgId}/audit`) or the platform's (`GET /admin/audit`, system admins). */
export type AuditScope = { kind: "org"; orgId: string; orgName: string } | { kind: "platform" };

/** One page of the audit log of `scope`, with the list's filters. */
export const useAuditEntries = apiQueryWith(
  (a: { scope: AuditScope; page: number; perPage: number; filters: AuditFilters }) =>
    a.scope.kind === "org"
      ? auditKeys.orgPage(a.scope.orgId, a.page, a.perPage, a.filters)
      : auditKeys.platformPage(a.page, a.perPage, a.filters),
  (bb, signal, { scope, page, perPage, filters }) => {
    const query = { ...filters, page, per_page: perPage } as AuditQuery;
    return scope.kind === "org"
      ? bb.api.GET("/orgs/{orgId}/audit", { params: { path: { orgId: scope.orgId }, query }, signal })
      : bb.api.GET("/admin/audit", { params: { query }, signal });
  },
);

/** `GET /orgs/{orgId}/audit/export`: the file and the answer's headers (its name, whether it was cut short). */
export function useAuditExport() {
  const bb = useApi();
  return async (orgId: string, query: AuditExportQuery): Promise<{ blob: Blob; headers: Headers }> => {
    let headers = new Headers();
    const blob = await unwrap(
      bb.api.GET("/orgs/{orgId}/audit/export", { params: { path: { orgId }, query }, parseAs: "blob" }).then((r) => {
        headers = r.response.headers;
        return r;
      }),
    );
    return { blob, headers };
  };
}
