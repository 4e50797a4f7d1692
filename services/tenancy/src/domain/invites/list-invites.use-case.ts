import type { Invite, ListInvitesQuery, Page } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { toInvite } from "../../data/invite.repository";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** The org's invites of one status (default pending), newest first. */
export async function listInvites(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & ListInvitesQuery): Promise<Page<Invite>> {
  const scope = await requireOrg(deps, ctx, input, "org.members.invite");
  const { invites } = deps.data.repos;
  const now = new Date(deps.now());
  return paginate(input, {
    rows: (window) => invites.list(scope, input.status, now, window),
    count: () => invites.count(scope, input.status, now),
    map: (rows) => rows.map((r) => toInvite(r, now)),
  });
}
