import type { NatsConnection } from "@nats-io/nats-core";
import { RpcName, type Actor, type AuthorizeReply, type Permission } from "@burnbox/contracts";
import { errors } from "./errors";
import { RpcError, rpcRequest } from "./nats";

/**
 * Turns an RBAC decision into the client's answer: 404 when the caller may not even know the
 * org or team exists (or is not in it), 403 when it may see it but lacks the permission, 409
 * when the team is archived and the permission would change it.
 */
export function assertAllowed(reply: AuthorizeReply, what = "resource"): void {
  if (reply.allowed) return;
  if (reply.reason === "missing_permission") throw errors.forbidden("insufficient permissions");
  // an archived team is read-only (contract notes): a change to it is a conflict, not a 404
  if (reply.reason === "team_archived") throw errors.conflict("team is archived");
  throw errors.notFound(what);
}

/** Asks tenancy over NATS whether `actor` holds `permission`; throws the envelope error if not. */
export async function authorize(
  nc: NatsConnection,
  namespace: string,
  req: { actor: Actor; org_id: string; team_id: string | null; permission: Permission },
  what = "resource",
): Promise<void> {
  let reply: AuthorizeReply;
  try {
    reply = await rpcRequest(nc, namespace, RpcName.authorize, req);
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
    throw err;
  }
  assertAllowed(reply, what);
}
