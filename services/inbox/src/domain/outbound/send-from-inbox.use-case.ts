import type { SendEmailBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { composeMail } from "../../adapters/mail-composer";
import type { InboxDeps } from "../deps";
import { checkRecipients, messageIdFor, queueOutbound, senderOf, type QueueResult } from "./queue-outbound";

/** POST /inboxes/:id/send: a new message from the inbox's address (extensions 10). */
export async function sendFromInbox(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { inboxId: string; body: SendEmailBody },
): Promise<QueueResult> {
  const sender = await senderOf(deps, ctx, await deps.data.repos.inboxes.locate(input.inboxId), "inbox");
  const b = input.body;
  const recipients = await checkRecipients(deps, sender, [...b.to, ...(b.cc ?? [])]);
  const messageId = messageIdFor(sender);
  const raw = await composeMail({
    from: sender.address,
    to: b.to,
    cc: b.cc ?? [],
    subject: b.subject,
    text: b.text,
    html: b.html,
    messageId,
    date: new Date(deps.now()),
    headers: b.headers,
    attachments: b.attachments,
  });
  return queueOutbound(deps, ctx, sender, { kind: "send", messageId, recipients, subject: b.subject, raw });
}
