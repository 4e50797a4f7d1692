import { RpcName, type InviteMailFields } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

/**
 * Has identity's mailer send the invite links. Called inside the invite's transaction, so an
 * invite whose mail could not even be queued is never stored (503, nothing changed).
 */
export async function sendInviteMails(deps: TenancyDeps, mails: InviteMailFields[]): Promise<void> {
  if (mails.length === 0) return;
  try {
    await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.sendInviteMail, { mails });
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("mailer unavailable");
    throw err;
  }
}
