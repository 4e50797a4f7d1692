import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

export interface InviteMail {
  email: string;
  token: string;
  org_name: string;
  org_role: string;
  inviter: string;
  expires_at: string;
}

/**
 * Has identity's mailer send the invite links. Called inside the invite's transaction, so an
 * invite whose mail could not even be queued is never stored (503, nothing changed).
 */
export async function sendInviteMails(deps: TenancyDeps, mails: InviteMail[]): Promise<void> {
  if (mails.length === 0) return;
  try {
    await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.sendInviteMail, { mails });
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("mailer unavailable");
    throw err;
  }
}
