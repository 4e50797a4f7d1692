import type { IdentityDeps } from "../deps";

/**
 * Whether `email` is in `admin.emails`, the operator's list of who may be a system admin. Being
 * listed gives no right by itself: the account becomes an admin when its owner proves the address
 * (the verification link, `verifyEmail`), or the admin comes from first-run setup (the setup token).
 */
export function isListedAdmin(deps: IdentityDeps, email: string): boolean {
  return deps.config.admin.emails.includes(email.trim().toLowerCase());
}
