import type { TenancyDeps } from "../deps";

/** Whether any org the user belongs to has `enforce_sso` on (identity then refuses password logins). */
export async function ssoEnforced(deps: TenancyDeps, input: { user_id: string }): Promise<{ enforced: boolean }> {
  const orgs = await deps.data.repos.orgs.listForUser(input.user_id, { skip: 0, take: 10_000 });
  return { enforced: orgs.some((o) => o.settings.enforce_sso === true) };
}
