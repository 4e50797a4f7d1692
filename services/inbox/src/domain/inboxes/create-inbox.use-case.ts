import { randomUUID } from "node:crypto";
import { ErrorCode, RpcName, normalizedSmtpBehaviour, parseDurationMs, type CreateInboxBody, type Inbox } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { AppError, errors } from "@burnbox/service-kit/runtime";
import { authorize } from "@burnbox/service-kit/security";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";
import { assertAssignmentUsable, randomAlias, resolveTtlMs } from "./inbox-rules";

/** How often a random alias that happens to be taken is drawn again before giving up with 409. */
const RANDOM_ALIAS_ATTEMPTS = 5;

async function assignmentFor(deps: InboxDeps, ctx: RequestCtx, assignmentId: string) {
  const { assignment } = await askTenancy(deps, RpcName.getAssignment, { assignment_id: assignmentId });
  if (!assignment) throw errors.notFound("domain assignment");
  const scope = { org_id: assignment.org_id, team_id: assignment.team_id };
  await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor: ctx.actor, ...scope, permission: "team.inboxes.create" },
    "domain assignment",
  );
  return assignment;
}

/** 409 at `max_inboxes_per_domain` (contract notes: it counts active inboxes); never drawn again. */
class InboxQuotaReached extends AppError {}
const quotaReached = (limit: number) => new InboxQuotaReached(ErrorCode.conflict, `inbox limit reached for this domain (${limit})`);
const isConflict = (err: unknown) => err instanceof AppError && err.code === ErrorCode.conflict && !(err instanceof InboxQuotaReached);

/** Creates an inbox on a domain assigned to one of the caller's teams, with the alias asked for or a random one. */
export async function createInbox(deps: InboxDeps, ctx: RequestCtx, input: CreateInboxBody): Promise<Inbox> {
  const assignment = await assignmentFor(deps, ctx, input.domain_assignment_id); // authorizes
  assertAssignmentUsable(assignment);
  const ttlMs = resolveTtlMs(
    input.ttl,
    assignment.default_ttl_seconds ?? parseDurationMs(deps.config.inboxes.default_ttl) / 1000,
    assignment.max_ttl_seconds ?? parseDurationMs(deps.config.inboxes.max_ttl) / 1000,
  );
  const scope: TeamScope = { orgId: assignment.org_id, teamId: assignment.team_id };
  const smtpBehaviour = normalizedSmtpBehaviour(input.smtp_behaviour);
  for (let attempt = 1; ; attempt++) {
    const address = input.alias ?? randomAlias();
    const fullAddress = `${address}@${assignment.domain_name}`;
    const createdAt = new Date(deps.now());
    try {
      return await deps.data.write(async (repos, events) => {
        // an org or team removed meanwhile: its assignment is gone (see lockTenants)
        if (await repos.tenants.lockForCreate(scope)) throw errors.notFound("domain assignment");
        const limit = assignment.max_inboxes_per_domain;
        if ((await repos.inboxes.countActiveOnDomainLocked(assignment.domain_id, createdAt)) >= limit) {
          throw quotaReached(limit);
        }
        const inbox = await repos.inboxes.create(scope, {
          id: randomUUID(),
          domainId: assignment.domain_id,
          domainAssignmentId: assignment.id,
          createdBy: ctx.actor.user_id,
          address,
          domainName: assignment.domain_name,
          fullAddress,
          private: input.private ?? false,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + ttlMs),
          ttlMs,
          smtpBehaviour,
        });
        events.event("inbox.created", {
          org_id: scope.orgId,
          team_id: scope.teamId,
          data: {
            inbox_id: inbox.id,
            team_id: scope.teamId,
            address,
            full_address: fullAddress,
            expires_at: inbox.expires_at,
            created_by: ctx.actor.user_id,
          },
        });
        events.audit({
          ctx,
          action: "inbox.created",
          org_id: scope.orgId,
          team_id: scope.teamId,
          target: { type: "inbox", id: inbox.id },
          metadata: { full_address: fullAddress, ...(smtpBehaviour ? { smtp_behaviour: smtpBehaviour } : {}) },
        });
        return inbox;
      });
    } catch (err) {
      // a chosen alias that is taken is the caller's conflict; a random one is drawn again
      if (input.alias || attempt >= RANDOM_ALIAS_ATTEMPTS || !isConflict(err)) throw err;
    }
  }
}
