import type { ProvisionMembershipReply } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { applyMembership, type MembershipInput } from "./apply-membership";

/**
 * Makes a user provisioned by SSO a member of the org and, unless it is archived, of the team, with
 * the mapping's roles. A system action (no actor), audited; idempotent: a membership the user
 * already has is kept as it is, so a retried request changes nothing.
 */
export async function provisionMembership(deps: TenancyDeps, input: MembershipInput): Promise<ProvisionMembershipReply> {
  return deps.data.write((tx, events) => applyMembership(tx, events, input));
}
