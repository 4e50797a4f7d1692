import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** Revokes an invite: its link stops working. An unknown one (or another org's) is 404; one no longer pending, 409. */
export async function revokeInvite(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; inviteId: string },
): Promise<{ message: string }> {
  const scope = await requireOrg(deps, ctx, input, "org.members.invite");
  const now = new Date(deps.now());
  return deps.data.write(async (repos, events) => {
    const invite = await repos.invites.get(scope, input.inviteId);
    if (!invite) throw errors.notFound("invite");
    if (!(await repos.invites.revoke(scope, invite.id, now))) throw errors.conflict(`invite is already ${invite.status}`);
    events.audit({
      ctx,
      action: "invite.revoked",
      org_id: scope.orgId,
      target: { type: "invite", id: invite.id },
      metadata: { email: invite.email },
    });
    return { message: "invite revoked" };
  });
}
