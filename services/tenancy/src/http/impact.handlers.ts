import type { domainImpactRoutes, teamImpactRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { getDomainImpact } from "../domain/impact/get-domain-impact.use-case";
import { getTeamImpact } from "../domain/impact/get-team-impact.use-case";
import { transferDomain } from "../domain/impact/transfer-domain.use-case";

export const domainImpactHandlers = (deps: TenancyDeps): Handlers<typeof domainImpactRoutes> => ({
  getDomainImpact: ({ ctx, params }) => getDomainImpact(deps, ctx, params),
  transferDomain: ({ ctx, params, body }) => transferDomain(deps, ctx, { ...params, ...body }),
});

export const teamImpactHandlers = (deps: TenancyDeps): Handlers<typeof teamImpactRoutes> => ({
  getTeamImpact: ({ ctx, params }) => getTeamImpact(deps, ctx, params),
});
