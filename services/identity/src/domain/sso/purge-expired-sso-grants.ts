import type { IdentityDeps } from "../deps";

/** Deletes the SSO states (10 min) and one-time codes (60 s) past their expiry; taking one already refuses it. */
export async function purgeExpiredSsoGrants(deps: IdentityDeps): Promise<number> {
  const purged = await deps.data.repos.ssoGrants.purgeExpired(new Date(deps.now()));
  if (purged > 0) deps.logger.info({ purged }, "expired SSO states and codes purged");
  return purged;
}
