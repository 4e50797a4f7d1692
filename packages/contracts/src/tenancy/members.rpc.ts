import { z } from "../zod";

/** Where an SSO domain mapping provisions: an org, and optionally one of its teams, with roles. */
export const ProvisioningTarget = z.object({
  org_id: z.string().uuid(),
  org_role: z.string().min(1).max(100),
  team_id: z.string().uuid().nullable().default(null),
  team_role: z.string().min(1).max(100).nullable().default(null),
});
/** Identity checks a mapping's target before saving it: the org exists, the team is in it, the roles are known. */
export const CheckProvisioningTargetRequest = ProvisioningTarget;
export const CheckProvisioningTargetReply = z.object({
  /** null when valid; else org_not_found | team_not_found | unknown_org_role | unknown_team_role */
  problem: z.string().nullable(),
});
/**
 * Identity asks tenancy to make a newly provisioned SSO user a member of the org (and team): a
 * system action, idempotent (an existing membership is kept as is); an archived team is skipped.
 */
export const ProvisionMembershipRequest = ProvisioningTarget.extend({ user_id: z.string().uuid(), provider: z.string().max(100) });
export const ProvisionMembershipReply = z.object({
  org: z.enum(["added", "existing", "org_not_found", "unknown_role"]),
  team: z.enum(["added", "existing", "skipped_archived", "team_not_found", "unknown_role", "none"]),
});
export type ProvisionMembershipReply = z.infer<typeof ProvisionMembershipReply>;

/** Tenancy: SSO provisioning targets checked and memberships made for identity. */
export const membersRpc = {
  checkProvisioningTarget: {
    name: "tenancy.check_provisioning_target",
    request: CheckProvisioningTargetRequest,
    reply: CheckProvisioningTargetReply,
  },
  provisionMembership: { name: "tenancy.provision_membership", request: ProvisionMembershipRequest, reply: ProvisionMembershipReply },
} as const;
