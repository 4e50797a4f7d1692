import { RpcName, type Actor } from "@burnbox/contracts";
import { rpcRequest, RpcError } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { authorizeInbox } from "@burnbox/service-kit/security";
import type { RealtimeDeps } from "../deps";

/** May this actor watch this inbox? Throws the 404/403/503 the client gets before any upgrade. */
export async function checkInboxAccess(deps: RealtimeDeps, actor: Actor, inboxId: string): Promise<void> {
  // a ticket taken with an API key reads mail only with the key's read scope (tenancy checks it too)
  if (actor.api_key && !actor.api_key.scopes.includes("team.emails.view")) throw errors.forbidden("insufficient scope");
  let inbox;
  try {
    ({ inbox } = await rpcRequest(deps.nc, deps.namespace, RpcName.getInboxAccess, { inbox_id: inboxId }));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("inbox service unavailable");
    throw err;
  }
  if (!inbox) throw errors.notFound("inbox");
  // the same check as the inbox service's reads of its mail
  await authorizeInbox(deps.nc, deps.namespace, { actor, inbox, permission: "team.emails.view" }, "inbox");
}
