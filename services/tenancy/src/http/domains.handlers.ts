import type { domainsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { bulkDeleteDomains } from "../domain/domains/bulk-delete-domains.use-case";
import { bulkVerifyDomains } from "../domain/domains/bulk-verify-domains.use-case";
import { createDomain } from "../domain/domains/create-domain.use-case";
import { deleteDomain } from "../domain/domains/delete-domain.use-case";
import { getDomainVerificationHistory } from "../domain/domains/get-domain-verification-history.use-case";
import { getDomain } from "../domain/domains/get-domain.use-case";
import { listDomains } from "../domain/domains/list-domains.use-case";
import { updateDomain } from "../domain/domains/update-domain.use-case";
import { verifyDomain } from "../domain/domains/verify-domain.use-case";

export const domainsHandlers = (deps: TenancyDeps): Handlers<typeof domainsRoutes> => ({
  createDomain: ({ ctx, params, body }) => createDomain(deps, ctx, { ...params, ...body }),
  listDomains: ({ ctx, params, query }) => listDomains(deps, ctx, { ...params, ...query }),
  getDomain: ({ ctx, params }) => getDomain(deps, ctx, params),
  updateDomain: ({ ctx, params, body }) => updateDomain(deps, ctx, { ...params, ...body }),
  deleteDomain: ({ ctx, params, query }) => deleteDomain(deps, ctx, { ...params, force: query.force }),
  verifyDomain: ({ ctx, params }) => verifyDomain(deps, ctx, params),
  bulkVerifyDomains: ({ ctx, params, body }) => bulkVerifyDomains(deps, ctx, { ...params, ...body }),
  bulkDeleteDomains: ({ ctx, params, body }) => bulkDeleteDomains(deps, ctx, { ...params, ...body }),
  getDomainVerificationHistory: ({ ctx, params, query }) => getDomainVerificationHistory(deps, ctx, { ...params, ...query }),
});
