import type { SessionStatusReply } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The gateway's question over RPC when Redis cannot answer it: is the session of an access token
 * revoked? A session that does not exist (its user was deleted) counts as revoked.
 */
export async function getSessionStatus(deps: IdentityDeps, input: { sessionId: string }): Promise<SessionStatusReply> {
  if (!UUID.test(input.sessionId)) return { revoked: true };
  const status = await deps.data.repos.sessions.locateStatus(input.sessionId);
  return { revoked: status?.revoked ?? true };
}
