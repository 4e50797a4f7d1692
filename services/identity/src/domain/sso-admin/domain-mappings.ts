import type { SsoDomainMappingBody } from "@burnbox/contracts";
import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
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

/** One mapping per domain and provider (contract notes: 409 duplicates), so a first login has one place to go. */
export const duplicateMapping = () => errors.conflict("the provider already maps that domain");

const TARGET_PROBLEMS: Record<string, string> = {
  org_not_found: "org_id does not name an organization",
  team_not_found: "team_id does not name a team of that organization",
  unknown_org_role: "org_role is not a role of the organization",
  unknown_team_role: "team_role is not a team role",
};

/** 400 unless tenancy confirms the org exists, the team belongs to it and the roles are known. */
export async function requireTarget(deps: IdentityDeps, fields: MappingFields): Promise<void> {
  let problem: string | null;
  try {
    ({ problem } = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.checkProvisioningTarget, {
      org_id: fields.orgId,
      org_role: fields.orgRole,
      team_id: fields.teamId,
      team_role: fields.teamRole,
    }));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("organization directory unavailable");
    throw err;
  }
  if (problem) throw errors.validation(TARGET_PROBLEMS[problem] ?? "invalid mapping target");
}
