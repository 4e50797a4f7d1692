import type { TenancyDeps } from "../deps";
import { resolveRole } from "../roles/resolve-role";

export interface ProvisioningTargetInput {
  org_id: string;
  org_role: string;
  team_id: string | null;
  team_role: string | null;
}

/**
 * Whether an SSO domain mapping's target can be provisioned into: the org exists, the team (if any)
 * belongs to it, and the roles are known. Answers the problem, or null. A system check (identity's
 * admin has already been authorized by identity).
 */
export async function checkProvisioningTarget(deps: TenancyDeps, input: ProvisioningTargetInput): Promise<{ problem: string | null }> {
  const repos = deps.data.repos;
  if (!(await repos.orgs.exists({ orgId: input.org_id }))) return { problem: "org_not_found" };
  if (!(await resolveRole(repos, "org", input.org_role))) return { problem: "unknown_org_role" };
  if (input.team_id) {
    const team = await repos.teams.get({ orgId: input.org_id, teamId: input.team_id });
    if (!team) return { problem: "team_not_found" };
    if (!(await resolveRole(repos, "team", input.team_role ?? "member"))) return { problem: "unknown_team_role" };
  }
  return { problem: null };
}
