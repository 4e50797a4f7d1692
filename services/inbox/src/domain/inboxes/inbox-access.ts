import type { Permission } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { authorize } from "@burnbox/service-kit/security";
import type { InboxAccess } from "../../data/inbox.repository";
import { isDemoInbox } from "../demo/demo-rules";
import type { InboxDeps } from "../deps";

/**
 * Authorizes the caller on a located inbox and returns its tenant. An inbox the caller may not
 * see (absent, another team's, someone else's private one, a demo inbox: those are read only
 * through `/try`) is a 404 naming `what`.
 */
export async function authorizeInbox(
  deps: InboxDeps,
  ctx: RequestCtx,
  inbox: InboxAccess | null,
  permission: Permission,
  what = "inbox",
): Promise<TeamScope> {
  if (!inbox || isDemoInbox(inbox)) throw errors.notFound(what);
  await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor: ctx.actor, org_id: inbox.org_id, team_id: inbox.team_id, permission },
    what,
  );
  if (inbox.private && inbox.created_by !== ctx.actor.user_id) throw errors.notFound(what);
  return { orgId: inbox.org_id, teamId: inbox.team_id };
}

/** The tenant of an inbox the caller may see with `permission`; 404 otherwise. */
export async function visibleInbox(deps: InboxDeps, ctx: RequestCtx, inboxId: string, permission: Permission): Promise<TeamScope> {
  return authorizeInbox(deps, ctx, await deps.data.repos.inboxes.locate(inboxId), permission);
}
