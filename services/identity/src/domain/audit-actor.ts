import type { AuditActor } from "@burnbox/service-kit/data";

/**
 * The user acting on their own account, for audit entries of flows where the request carries no
 * actor yet (sign-up, sign-in, mail links): the entry names the account's user.
 */
export const selfActor = (userId: string, ip: string | null): AuditActor => ({ actor: { user_id: userId, api_key: null }, ip });
