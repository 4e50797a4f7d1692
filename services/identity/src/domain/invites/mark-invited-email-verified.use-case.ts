import type { IdentityDeps } from "../deps";

/**
 * Marks the account's email verified after it accepted an invite mailed to that address (a
 * system consequence of tenancy's `invite.accepted`; idempotent, so a redelivery changes nothing).
 */
export async function markInvitedEmailVerified(deps: IdentityDeps, input: { userId: string; email: string }): Promise<void> {
  const user = await deps.data.repos.users.get(input.userId);
  if (!user || user.email_verified || user.email.toLowerCase() !== input.email.toLowerCase()) return;
  await deps.data.repos.users.update(input.userId, { emailVerified: true });
}
