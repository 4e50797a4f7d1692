import { randomUUID } from "node:crypto";
import { RpcName, type OutboundKind, type OutboundQueued, type RateLimitBody } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { askTenancy } from "../tenancy";
import type { InboxAccess } from "../../data/inbox.repository";
import { firstRefused, newMessageId, normalAddress } from "./outbound-rules";

/** What a queued request answers: 202 `{outbound_id, message_id}`, or the team's hourly limit reached. */
export type QueueResult = OutboundQueued | { rateLimited: RateLimitBody };

/** The sending inbox, once the caller may send from it and its domain may send. */
export interface Sender {
  scope: TeamScope;
  inboxId: string;
  address: string;
  domain: string;
  allowedRecipients: string[];
}

/**
 * The inbox mail goes out from: the caller needs `team.emails.send` on it (a foreign or unknown
 * inbox, or the email's, answers 404 naming `what`); its domain must be verified or trusted (409).
 */
export async function senderOf(deps: InboxDeps, ctx: RequestCtx, inbox: InboxAccess | null, what: string): Promise<Sender> {
  const scope = await authorizeInbox(deps, ctx, inbox, "team.emails.send", what);
  const found = inbox ? await deps.data.repos.inboxes.get(scope, inbox.id) : null;
  if (!found) throw errors.notFound(what);
  const { assignment } = await askTenancy(deps, RpcName.getAssignment, { assignment_id: found.domain_assignment_id });
  if (!assignment) throw errors.notFound(what);
  if (!assignment.domain_verified) throw errors.conflict("domain is not verified");
  return {
    scope,
    inboxId: found.id,
    address: normalAddress(found.full_address),
    domain: found.full_address.slice(found.full_address.lastIndexOf("@") + 1).toLowerCase(),
    allowedRecipients: assignment.outbound_allowed_recipients ?? [],
  };
}

/** 403 `recipient not allowed: <address>` for the first recipient that is neither BurnBox's own inbox nor allowed. */
export async function checkRecipients(deps: InboxDeps, sender: Sender, recipients: string[]): Promise<string[]> {
  const all = [...new Set(recipients.map(normalAddress))];
  const local = await deps.data.repos.outbound.localInboxes(all);
  const refused = firstRefused(all, local, sender.allowedRecipients);
  if (refused) throw errors.forbidden(`recipient not allowed: ${refused}`);
  return all;
}

export const messageIdFor = (sender: Sender): string => newMessageId(sender.domain);

/**
 * Queues one message in one transaction with its audit entry, within the team's
 * `outbound.max_per_hour`; the worker is woken once it is committed.
 */
export async function queueOutbound(
  deps: InboxDeps,
  ctx: RequestCtx,
  sender: Sender,
  m: { kind: OutboundKind; messageId: string; recipients: string[]; subject: string; raw: Buffer; target?: { type: string; id: string } },
): Promise<QueueResult> {
  const id = randomUUID();
  const at = new Date(deps.now());
  const max = deps.config.outbound.max_per_hour;
  const queued = await deps.data.write(async (repos, events) => {
    if (!(await repos.outbound.takeHourlySlot(sender.scope, at, max))) {
      return { retryAfter: await repos.outbound.retryAfterSeconds(sender.scope, at) };
    }
    await repos.outbound.queue(sender.scope, {
      id,
      inboxId: sender.inboxId,
      kind: m.kind,
      messageId: m.messageId,
      mailFrom: sender.address,
      recipients: m.recipients,
      subject: m.subject,
      raw: m.raw,
      at,
    });
    events.audit({
      ctx,
      action: `email.${m.kind === "send" ? "sent" : m.kind === "reply" ? "replied" : "released"}`,
      org_id: sender.scope.orgId,
      team_id: sender.scope.teamId,
      target: m.target ?? { type: "inbox", id: sender.inboxId },
      metadata: { inbox_id: sender.inboxId, outbound_id: id, message_id: m.messageId, to: m.recipients, subject: m.subject },
    });
    return null;
  });
  if (queued) {
    return { rateLimited: { error: `outbound limit reached: ${max} messages per hour per team`, retry_after: queued.retryAfter } };
  }
  deps.outboundWake?.();
  return { outbound_id: id, message_id: m.messageId };
}
