import { createHash } from "node:crypto";
import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";

/**
 * The invite a registration names (`invite_token`), checked with tenancy before the account is
 * made: its SHA-256 when it may be redeemed by `email`, null when none was named. An unknown,
 * expired, revoked or used invite, or one sent to another address, is a 400 and nothing is made.
 */
export async function checkRegistrationInvite(deps: IdentityDeps, token: string | undefined, email: string): Promise<string | null> {
  if (token === undefined) return null;
  if (!/^[0-9a-f]{64}$/.test(token)) throw errors.validation("invalid or expired invite");
  const tokenHash = createHash("sha256").update(token, "utf8").digest("hex");
  let reply;
  try {
    reply = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.checkInvite, { token_hash: tokenHash, email });
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("invites are unavailable");
    throw err;
  }
  switch (reply.problem) {
    case null:
      return tokenHash;
    case "email_mismatch":
      throw errors.validation("the invite was sent to another email address");
    case "not_found":
    case "already_accepted":
      throw errors.validation("invalid or expired invite");
  }
}

/**
 * Has tenancy redeem the invite of a registration just committed, and waits for it, so the answer
 * to `POST /auth/register` comes after the membership exists (the next request sees it). The user
 * and its `invite.redeemed` event are committed before this call: if tenancy cannot answer, the
 * registration answers 503 and nothing is lost; the account exists (the holder signs in) and
 * tenancy redeems the invite from the event once it is back. An invite revoked or expired since
 * the check is `refused`: the account stands without the membership, as before.
 */
export async function joinInvitedOrg(deps: IdentityDeps, input: { tokenHash: string; userId: string; email: string }): Promise<void> {
  try {
    await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.redeemInvite, {
      token_hash: input.tokenHash,
      user_id: input.userId,
      email: input.email,
    });
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    deps.logger.warn({ user_id: input.userId, err: err.message }, "invite not redeemed at registration; the invite.redeemed event will");
    throw errors.unavailable("account created, but joining the organization is pending: sign in again shortly");
  }
}
