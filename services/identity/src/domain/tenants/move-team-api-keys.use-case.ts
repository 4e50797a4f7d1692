import type { IdentityDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its API keys are filed under the new
 * org, once per event, after any create of the team in flight has committed.
 */
export async function moveTeamApiKeys(
  deps: IdentityDeps,
  input: { consumer: string; eventId: string; teamId: string; fromOrgId: string; toOrgId: string },
): Promise<void> {
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, input.eventId))) return;
    const scope = { orgId: input.fromOrgId, teamId: input.teamId };
    await repos.tenants.lockTeam(scope);
    await repos.apiKeys.moveTeam(scope, input.toOrgId);
  });
}
