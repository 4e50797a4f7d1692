import type { CheckInviteReply } from "@burnbox/contracts";
import { statusAt } from "../../data/invite.repository";
import type { TenancyDeps } from "../deps";

/** Whether an invite (by its token's hash) may be redeemed by an address about to register. */
export async function checkInvite(deps: TenancyDeps, input: { token_hash: string; email: string }): Promise<CheckInviteReply> {
  const invite = await deps.data.repos.invites.locateByTokenHash(input.token_hash);
  if (!invite) return { problem: "not_found" };
  const status = statusAt(invite, new Date(deps.now()));
  if (status === "accepted") return { problem: "already_accepted" };
  if (status !== "pending") return { problem: "not_found" };
  if (invite.email.toLowerCase() !== input.email.trim().toLowerCase()) return { problem: "email_mismatch" };
  return { problem: null };
}
