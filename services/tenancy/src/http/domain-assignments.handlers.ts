import type { Handlers } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";
import { assignDomain } from "../domain/domain-assignments/assign-domain.use-case";
import type { DomainAssignmentsRoutes } from "./routes";

export const domainAssignmentsHandlers = (deps: TenancyDeps): Handlers<DomainAssignmentsRoutes> => ({
  assignDomain: ({ ctx, params, body }) => assignDomain(deps, ctx, { ...params, ...body }),
});
