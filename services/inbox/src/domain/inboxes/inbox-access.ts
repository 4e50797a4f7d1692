import type { Permission } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { authorizeInbox as authorizeOnInbox } from "@burnbox/service-kit/security";
import type { InboxAccess } from "../../data/inbox.repository";
import { isDemoInbox } from "../demo/demo-rules";
import type { InboxDeps } from "../deps";

/**
 * Authorizes the caller on a located inbox and returns its tenant. An inbox the caller may not
 * see (absent, another team's, someone else's private one or one on an assignment that keeps the
 * caller to their own inboxes, see the kit's `authorizeInbox`; a demo inbox: those are read only
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
  await authorizeOnInbox(deps.nc, deps.config.nats.namespace, { actor: ctx.actor, inbox, permission }, what);
  return { orgId: inbox.org_id, teamId: inbox.team_id };
}

/** The tenant of an inbox the caller may see with `permission`; 404 otherwise. */
export async function visibleInbox(deps: InboxDeps, ctx: RequestCtx, inboxId: string, permission: Permission): Promise<TeamScope> {
  return authorizeInbox(deps, ctx, await deps.data.repos.inboxes.locate(inboxId), permission);
}
