import { randomUUID } from "node:crypto";
import { EventType, RpcName, subjects, type Actor, type EventOf } from "@burnbox/contracts";
import { newEvent, publishEvent, serveRpc, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Infra, Logger } from "@burnbox/service-kit/runtime";

type EmailReceived = EventOf<typeof EventType.emailReceived>;

/**
 * Inbox and tenancy's answers for the streams: every inbox is a public one of `orgId`/`teamId`
 * created by `member`, whom alone tenancy lets in.
 */
export function serveInboxStandIns(
  nc: NatsConnection,
  ns: string,
  o: { orgId: string; teamId: string; assignmentId: string; member: Actor },
  logger: Logger,
): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(
      nc,
      ns,
      RpcName.getInboxAccess,
      (req) =>
        Promise.resolve({
          inbox: {
            id: req.inbox_id,
            org_id: o.orgId,
            team_id: o.teamId,
            domain_assignment_id: o.assignmentId,
            is_active: true,
            private: false,
            created_by: o.member.user_id,
          },
        }),
      logger,
    ),
    serveRpc(
      nc,
      ns,
      RpcName.authorize,
      (req) =>
        Promise.resolve(
          req.actor.user_id === o.member.user_id ? { allowed: true, reason: null } : { allowed: false, reason: "not_member" },
        ),
      logger,
    ),
  ];
}

/** An `email.received` event of `inboxId` with its summary, as the intake makes it. */
export function mailEvent(o: { orgId: string; teamId: string; inboxId: string; subject: string }): EmailReceived {
  const emailId = randomUUID();
  const receivedAt = new Date().toISOString();
  return newEvent("email.received", {
    org_id: o.orgId,
    team_id: o.teamId,
    data: {
      email_id: emailId,
      inbox_id: o.inboxId,
      team_id: o.teamId,
      from: "s@example.org",
      to: "x@y.test",
      subject: o.subject,
      received_at: receivedAt,
      extracted: { codes: [], links: [] },
      summary: {
        id: emailId,
        inbox_id: o.inboxId,
        from_address: "s@example.org",
        subject: o.subject,
        snippet: "",
        has_attachments: false,
        is_read: false,
        size_bytes: 10,
        received_at: receivedAt,
      },
    },
  });
}

/**
 * Publishes an `email.received` event as the inbox service's outbox relay does: to the events
 * stream, then, once the stream has it, on its inbox's live subject, which the sockets' replicas
 * subscribe to.
 */
export async function publishMail(infra: Pick<Infra, "js" | "nc">, ns: string, event: EmailReceived): Promise<void> {
  await publishEvent(infra.js, ns, event);
  infra.nc.publish(subjects(ns).live(EventType.emailReceived, event.data.inbox_id), JSON.stringify(event));
}
