import { randomInt, randomUUID } from "node:crypto";
import {
  RpcName,
  pageWindow,
  parseDurationMs,
  toPage,
  type Actor,
  type CreateInboxBody,
  type Inbox,
  type Page,
  type PaginationQuery,
  type Permission,
} from "@burnbox/contracts";
import { RpcError, auditEvent, authorize, errors, newEvent, outboxRow, rpcRequest } from "@burnbox/service-kit";
import { isUniqueViolation, type Prisma } from "../data/prisma";
import { countsOf } from "../data/counts";
import { inboxView } from "../data/views";
import type { InboxDeps } from "./deps";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
export const randomAlias = (length = 10): string => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");

async function rpc<N extends RpcName>(deps: InboxDeps, name: N, body: Parameters<typeof rpcRequest<N>>[3]) {
  try {
    return await rpcRequest(deps.nc, deps.config.nats.namespace, name, body);
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("tenancy unavailable");
    throw err;
  }
}

/** The TTL for a new inbox in ms: the requested one within the limits, else the default (contract notes). */
export function resolveTtlMs(requested: string | undefined, defaultSeconds: number, maxSeconds: number): number {
  const ms = requested ? parseDurationMs(requested) : defaultSeconds * 1000;
  if (ms <= 0) throw errors.validation("ttl must be positive");
  if (ms > maxSeconds * 1000) throw errors.validation(`ttl exceeds the maximum of ${maxSeconds}s`);
  return ms;
}

export async function createInbox(deps: InboxDeps, actor: Actor, body: CreateInboxBody, ip: string): Promise<Inbox> {
  const { assignment } = await rpc(deps, RpcName.getAssignment, { assignment_id: body.domain_assignment_id });
  if (!assignment) throw errors.notFound("domain assignment");
  await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor, org_id: assignment.org_id, team_id: assignment.team_id, permission: "team.inboxes.create" },
    "domain assignment",
  );
  if (assignment.access_level === "read_only") throw errors.forbidden("this domain is assigned read-only to the team");
  if (!assignment.domain_verified) throw errors.validation("domain is not verified");
  if (assignment.team_archived) throw errors.validation("team is archived");
  const ttlMs = resolveTtlMs(
    body.ttl,
    assignment.default_ttl_seconds ?? parseDurationMs(deps.config.inboxes.default_ttl) / 1000,
    assignment.max_ttl_seconds ?? parseDurationMs(deps.config.inboxes.max_ttl) / 1000,
  );
  const chosen = body.alias;
  for (let attempt = 0; ; attempt++) {
    const alias = chosen ?? randomAlias();
    const id = randomUUID();
    const now = new Date(deps.now());
    const fullAddress = `${alias}@${assignment.domain_name}`;
    try {
      const inbox = await deps.db.$transaction(async (tx) => {
        const row = await tx.inbox.create({
          data: {
            id,
            orgId: assignment.org_id,
            teamId: assignment.team_id,
            domainId: assignment.domain_id,
            domainAssignmentId: assignment.id,
            createdBy: actor.user_id,
            address: alias,
            domainName: assignment.domain_name,
            fullAddress,
            private: body.private ?? false,
            createdAt: now,
            expiresAt: new Date(now.getTime() + ttlMs),
          },
        });
        const ns = deps.config.nats.namespace;
        const created = newEvent("inbox.created", {
          org_id: row.orgId,
          team_id: row.teamId,
          data: { inbox_id: id, team_id: row.teamId, address: alias, full_address: fullAddress, expires_at: row.expiresAt.toISOString() },
        });
        const audit = auditEvent({
          action: "inbox.created",
          actor,
          org_id: row.orgId,
          team_id: row.teamId,
          target_type: "inbox",
          target_id: id,
          ip,
          metadata: { full_address: fullAddress },
        });
        await tx.outboxEvent.createMany({ data: [outboxRow(ns, created), outboxRow(ns, audit)] });
        return row;
      });
      deps.relay.kick();
      return inboxView(inbox);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (chosen || attempt >= 4) throw errors.conflict("address already in use");
    }
  }
}

/** Loads an inbox the actor may see with `permission`; 404 otherwise (private inboxes are their creator's). */
export async function visibleInbox(deps: InboxDeps, actor: Actor, inboxId: string, permission: Permission) {
  const inbox = await deps.db.inbox.findUnique({ where: { id: inboxId } });
  if (!inbox) throw errors.notFound("inbox");
  await authorize(deps.nc, deps.config.nats.namespace, { actor, org_id: inbox.orgId, team_id: inbox.teamId, permission }, "inbox");
  if (inbox.private && inbox.createdBy !== actor.user_id) throw errors.notFound("inbox");
  return inbox;
}

export async function getInbox(deps: InboxDeps, actor: Actor, inboxId: string): Promise<Inbox> {
  const inbox = await visibleInbox(deps, actor, inboxId, "team.inboxes.view");
  return inboxView(inbox, (await countsOf(deps.db, [inbox.id])).get(inbox.id));
}

const visibleTo = (actor: Actor): Prisma.InboxWhereInput => ({ OR: [{ private: false }, { createdBy: actor.user_id }] });

async function pageOf(deps: InboxDeps, where: Prisma.InboxWhereInput, q: PaginationQuery): Promise<Page<Inbox>> {
  const [rows, total] = await Promise.all([
    deps.db.inbox.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.inbox.count({ where }),
  ]);
  const counts = await countsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return toPage(
    rows.map((r) => inboxView(r, counts.get(r.id))),
    total,
    q,
  );
}

/** Every inbox the actor can see across its teams (optionally one team). */
export async function listInboxes(
  deps: InboxDeps,
  actor: Actor,
  q: PaginationQuery & { team_id?: string | undefined },
): Promise<Page<Inbox>> {
  const { teams } = await rpc(deps, RpcName.listActorTeams, { actor, permission: "team.inboxes.view" });
  const teamIds = teams.map((t) => t.team_id).filter((t) => !q.team_id || t === q.team_id);
  return pageOf(deps, { AND: [{ teamId: { in: teamIds } }, visibleTo(actor)] }, q);
}

export async function listTeamInboxes(
  deps: InboxDeps,
  actor: Actor,
  orgId: string,
  teamId: string,
  q: PaginationQuery,
): Promise<Page<Inbox>> {
  await authorize(deps.nc, deps.config.nats.namespace, { actor, org_id: orgId, team_id: teamId, permission: "team.inboxes.view" }, "team");
  return pageOf(deps, { AND: [{ teamId, orgId }, visibleTo(actor)] }, q);
}
