import type { ReleaseEmailBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { originalBytes, replyContext } from "./original-message";
import { resentHeaders } from "./outbound-rules";
import { checkRecipients, messageIdFor, queueOutbound, senderOf, type QueueResult } from "./queue-outbound";

/**
 * POST /emails/:id/release (extensions 10): the stored original, byte for byte, to new recipients,
 * with the Resent-* block on top (RFC 5322 3.6.6). `message_id` is the Resent-Message-ID.
 */
export async function releaseEmail(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { emailId: string; body: ReleaseEmailBody },
): Promise<QueueResult> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  const sender = await senderOf(deps, ctx, located?.inbox ?? null, "email");
  const recipients = await checkRecipients(deps, sender, input.body.to);
  const original = await originalBytes(deps, sender.scope, input.emailId);
  const messageId = messageIdFor(sender);
  const block = resentHeaders({ from: sender.address, to: recipients, date: new Date(deps.now()), messageId });
  const raw = Buffer.concat([Buffer.from(block, "utf8"), original]);
  const { subject } = await replyContext(original);
  return queueOutbound(deps, ctx, sender, {
    kind: "release",
    messageId,
    recipients,
    subject,
    raw,
    target: { type: "email", id: input.emailId },
  });
}
