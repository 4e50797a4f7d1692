import type { Handlers } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";
import { createDomain } from "../domain/domains/create-domain.use-case";
import type { DomainsRoutes } from "./routes";

export const domainsHandlers = (deps: TenancyDeps): Handlers<DomainsRoutes> => ({
  createDomain: ({ ctx, params, body }) => createDomain(deps, ctx, { ...params, ...body }),
});
