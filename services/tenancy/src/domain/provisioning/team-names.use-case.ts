import type { TenancyDeps } from "../deps";

/** The names of teams, each with its org, for identity's SSO mapping previews (a system read). */
export async function teamNames(
  deps: TenancyDeps,
  input: { teams: Array<{ org_id: string; team_id: string }> },
): Promise<{ teams: Array<{ team_id: string; name: string }> }> {
  const names = await deps.data.repos.teams.namesOf(input.teams.map((t) => ({ orgId: t.org_id, teamId: t.team_id })));
  return { teams: [...names].map(([team_id, name]) => ({ team_id, name })) };
}
