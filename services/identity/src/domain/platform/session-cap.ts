import type { IdentityRepos } from "../../data/repositories";
import type { IdentityDeps } from "../deps";

/** The platform's cap on sessions per user: the setting (PUT /admin/platform), else the configured default. */
export async function platformSessionCap(deps: IdentityDeps, repos: IdentityRepos): Promise<number> {
  return (await repos.platform.maxSessionsPerUser()) ?? deps.config.defaults.max_sessions_per_user;
}

/** One user's cap: their own, else the platform's. */
export async function sessionCapOf(deps: IdentityDeps, repos: IdentityRepos, userId: string): Promise<number> {
  return (await repos.users.sessionCap(userId)) || platformSessionCap(deps, repos);
}
