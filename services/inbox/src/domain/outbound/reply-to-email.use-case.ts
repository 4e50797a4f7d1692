import type { ReplyEmailBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { composeMail } from "../../adapters/mail-composer";
import type { InboxDeps } from "../deps";
import { originalBytes, replyContext } from "./original-message";
import { replyRecipients, replyReferences, replySubject } from "./outbound-rules";
import { checkRecipients, messageIdFor, queueOutbound, senderOf, type QueueResult } from "./queue-outbound";

/**
 * POST /emails/:id/reply (extensions 10): from the inbox's address to the original's Reply-To or
 * From (with `reply_all` its other recipients too, never the inbox), `Re: ` once, threaded by
 * In-Reply-To and References.
 */
export async function replyToEmail(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { emailId: string; body: ReplyEmailBody },
): Promise<QueueResult> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  const sender = await senderOf(deps, ctx, located?.inbox ?? null, "email");
  const parent = await replyContext(await originalBytes(deps, sender.scope, input.emailId));
  const { to, cc } = replyRecipients(parent, sender.address, input.body.reply_all);
  if (to.length === 0) throw errors.validation("the email names no one to reply to (no Reply-To or From)");
  const recipients = await checkRecipients(deps, sender, [...to, ...cc]);
  const messageId = messageIdFor(sender);
  const subject = replySubject(parent.subject);
  const raw = await composeMail({
    from: sender.address,
    to,
    cc,
    subject,
    text: input.body.text,
    html: input.body.html,
    messageId,
    date: new Date(deps.now()),
    inReplyTo: parent.messageId,
    references: replyReferences(parent),
    attachments: input.body.attachments,
  });
  return queueOutbound(deps, ctx, sender, {
    kind: "reply",
    messageId,
    recipients,
    subject,
    raw,
    target: { type: "email", id: input.emailId },
  });
}
