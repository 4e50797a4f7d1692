import type { SsoDomainMappingBody } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { MappingFields } from "../../data/sso-provider.repository";
import type { IdentityDeps } from "../deps";

/** The stored fields of a mapping body: a team role only with a team (member by default). */
export function mappingFields(body: SsoDomainMappingBody): MappingFields {
  const teamId = body.team_id ?? null;
  if (!teamId && body.team_role) throw errors.validation("team_role needs a team_id");
  return {
    domain: body.domain,
    orgId: body.org_id,
    teamId,
    orgRole: body.org_role,
    teamRole: teamId ? (body.team_role ?? "member") : null,
  };
}

/** 404 unless the provider exists. */
export async function requireProvider(deps: IdentityDeps, providerId: string): Promise<void> {
  if (!(await deps.data.repos.ssoProviders.get(providerId))) throw errors.notFound("SSO provider");
}

export const duplicateMapping = () => errors.conflict("a mapping of that domain to that org and team exists");
