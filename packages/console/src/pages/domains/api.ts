// The domains area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQueryWith, apiMutationWith } from "../../api/query";
import { domainsKeys } from "./keys";
import type { Domain } from "./status";
import type { ListParams } from "../../components";
import type { components } from "@burnbox/sdk";

/** `PATCH /orgs/{orgId}/domains/{domainId}` */
export const useUpdateDomain = apiMutationWith(
  (bb, body: components["schemas"]["UpdateDomainRequest"], args: { orgId: string; domainId: string }) =>
    bb.api.PATCH("/orgs/{orgId}/domains/{domainId}", { params: { path: { orgId: args.orgId, domainId: args.domainId } }, body }),
);

/** `GET /orgs/{orgId}/domains/{domainId}` */
export const useDomain = apiQueryWith(
  (args: { orgId: string; domainId: string; path: { orgId: string; domainId: string } }) => domainsKeys.domain(args.orgId, args.domainId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/domains/{domainId}", { params: { path: args.path }, signal }),
);

/** `POST /orgs/{orgId}/domains/{domainId}/verify` */
export const useVerifyDomain = apiMutationWith((bb, _vars: void, args: { path: { orgId: string; domainId: string } }) =>
  bb.api.POST("/orgs/{orgId}/domains/{domainId}/verify", { params: { path: args.path } }),
);

/** `POST /orgs/{orgId}/domains/{domainId}/transfer` */
export const useTransferDomain = apiMutationWith((bb, target: string, args: { path: { orgId: string; domainId: string } }) =>
  bb.api.POST("/orgs/{orgId}/domains/{domainId}/transfer", { params: { path: args.path }, body: { target_org_id: target } }),
);

/** `GET /orgs/{orgId}/domains/{domainId}/verification-history` */
export const useVerificationHistory = apiQueryWith(
  (args: { orgId: string; domainId: string; list: ListParams<never>; listPerPage: number }) =>
    domainsKeys.history(args.orgId, args.domainId, args.list.page),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/domains/{domainId}/verification-history", {
      params: { path: { orgId: args.orgId, domainId: args.domainId }, query: { page: args.list.page, per_page: args.listPerPage } },
      signal,
    }),
);

/** `GET /orgs/{orgId}/domains/{domainId}/impact` */
export const useDomainImpact = apiQueryWith(
  (args: { orgId: string; domainId: string; path: { orgId: string; domainId: string } }) => domainsKeys.impact(args.orgId, args.domainId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/domains/{domainId}/impact", { params: { path: args.path }, signal }),
);

/** `DELETE /orgs/{orgId}/domains/{domainId}` */
export const useDeleteDomain = apiMutationWith((bb, f: boolean, args: { path: { orgId: string; domainId: string } }) =>
  bb.api.DELETE("/orgs/{orgId}/domains/{domainId}", { params: { path: args.path, query: f ? { force: true } : {} } }),
);

/** `GET /orgs/{orgId}/domains` */
export const useDomains = apiQueryWith(
  (args: {
    orgId: string;
    list: ListParams<"q" | "status">;
    listPerPage: number;
    listFilters: Record<"q" | "status", string | undefined>;
  }) => domainsKeys.list(args.orgId, { page: args.list.page, perPage: args.listPerPage, ...args.listFilters }),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/domains", {
      params: {
        path: { orgId: args.orgId },
        query: {
          page: args.list.page,
          per_page: args.listPerPage,
          q: args.listFilters.q || undefined,
          status: (args.listFilters.status as Domain["status"] | undefined) || undefined,
        },
      },
      signal,
    }),
);

/** `POST /orgs/{orgId}/domains/bulk-verify` */
export const useBulkVerifyDomains = apiMutationWith((bb, ids: string[], args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/domains/bulk-verify", { params: { path: { orgId: args.orgId } }, body: { domain_ids: ids } }),
);

/** `POST /orgs/{orgId}/domains/bulk-delete` */
export const useBulkDeleteDomains = apiMutationWith((bb, vars: { ids: string[]; force: boolean }, args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/domains/bulk-delete", {
    params: { path: { orgId: args.orgId } },
    body: { domain_ids: vars.ids, ...(vars.force ? { force: true } : {}) },
  }),
);

/** `POST /orgs/{orgId}/domains` */
export const useAddDomain = apiMutationWith((bb, body: { domain_name: string; description?: string }, args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/domains", { params: { path: { orgId: args.orgId } }, body }),
);
