import { createHash } from "node:crypto";
import { RpcName } from "@burnbox/contracts";
import { RpcError, errors, rpcRequest } from "@burnbox/service-kit";
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
