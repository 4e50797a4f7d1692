import type { outboundRoutes, RateLimitBody } from "@burnbox/contracts";
import { reply, type Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { listOutbound } from "../domain/outbound/list-outbound.use-case";
import type { QueueResult } from "../domain/outbound/queue-outbound";
import { releaseEmail } from "../domain/outbound/release-email.use-case";
import { replyToEmail } from "../domain/outbound/reply-to-email.use-case";
import { sendFromInbox } from "../domain/outbound/send-from-inbox.use-case";

type Res = { setHeader(name: string, value: string): unknown };

/** 202 with the queued ids, or spec 7.2's 429 (not the envelope; Retry-After equals retry_after). */
function answer(res: Res, out: QueueResult) {
  if (!("rateLimited" in out)) return reply(202, out);
  const body: RateLimitBody = out.rateLimited;
  res.setHeader("Retry-After", String(body.retry_after));
  res.setHeader("X-RateLimit-Remaining", "0");
  return reply(429, body);
}

export const outboundHandlers = (deps: InboxDeps): Handlers<typeof outboundRoutes> => ({
  releaseEmail: async ({ ctx, params, body, http }) => answer(http.res, await releaseEmail(deps, ctx, { emailId: params.id, body })),
  replyToEmail: async ({ ctx, params, body, http }) => answer(http.res, await replyToEmail(deps, ctx, { emailId: params.id, body })),
  sendFromInbox: async ({ ctx, params, body, http }) => answer(http.res, await sendFromInbox(deps, ctx, { inboxId: params.id, body })),
  listOutbound: ({ ctx, params, query }) => listOutbound(deps, ctx, { inboxId: params.id, page: query }),
});
