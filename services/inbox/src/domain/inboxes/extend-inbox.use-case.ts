import { RpcName, parseDurationMs, type ExtendInboxBody, type Inbox } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";
import { visibleInbox } from "./inbox-access";
import { extendedExpiry } from "./inbox-rules";

/** The maximum TTL of the inbox's assignment, as tenancy resolves it now (the configured one if the assignment is gone). */
async function maxTtlMs(deps: InboxDeps, assignmentId: string): Promise<number> {
  const { assignment } = await askTenancy(deps, RpcName.getAssignment, { assignment_id: assignmentId });
  return assignment?.max_ttl_seconds != null ? assignment.max_ttl_seconds * 1000 : parseDurationMs(deps.config.inboxes.max_ttl);
}

/** Extends an inbox: expires now + duration (default its original TTL), never past created_at + its maximum TTL (400). */
export async function extendInbox(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string; body: ExtendInboxBody }): Promise<Inbox> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.inboxes.manage");
  const lifetime = await deps.data.repos.inboxes.lifetime(scope, input.inboxId);
  if (!lifetime) throw errors.notFound("inbox");
  const expiresAt = extendedExpiry({
    now: deps.now(),
    createdAt: lifetime.createdAt.getTime(),
    durationMs: input.body.duration ? parseDurationMs(input.body.duration) : lifetime.ttlMs,
    maxTtlMs: await maxTtlMs(deps, lifetime.domainAssignmentId),
  });
  return deps.data.write(async (repos, events) => {
    const inbox = await repos.inboxes.extend(scope, input.inboxId, expiresAt);
    if (!inbox) throw errors.notFound("inbox");
    events.audit({
      ctx,
      action: "inbox.extended",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "inbox", id: inbox.id, name: inbox.full_address },
      metadata: { expires_at: inbox.expires_at },
    });
    return inbox;
  });
}
