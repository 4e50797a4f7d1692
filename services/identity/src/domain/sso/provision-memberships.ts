import { RpcName } from "@burnbox/contracts";
import { rpcRequest } from "@burnbox/service-kit";
import type { IdentityDeps } from "../deps";
import type { ProvisioningPlan } from "../sso-admin/provisioning-plan";

/**
 * Asks tenancy to make a newly provisioned SSO user a member of each org (and team) of the plan.
 * Tenancy's side is idempotent and audited; archived teams are skipped there. A failure is logged and
 * does not stop the sign-in: the account exists and an org admin can add the memberships by hand.
 */
export async function provisionMemberships(
  deps: IdentityDeps,
  userId: string,
  provider: string,
  memberships: ProvisioningPlan["memberships"],
): Promise<void> {
  for (const m of memberships) {
    try {
      const reply = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.provisionMembership, {
        user_id: userId,
        provider,
        org_id: m.org_id,
        org_role: m.org_role,
        team_id: m.team_id,
        team_role: m.team_role,
      });
      if (reply.org !== "added" && reply.org !== "existing")
        deps.logger.warn({ userId, membership: m, reply }, "SSO membership not provisioned");
    } catch (err) {
      deps.logger.error({ err: { message: (err as Error).message }, userId, membership: m }, "SSO membership provisioning failed");
    }
  }
}
