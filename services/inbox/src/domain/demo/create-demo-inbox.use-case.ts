import { randomUUID } from "node:crypto";
import { ErrorCode, parseDurationMs, type Actor, type DemoInbox, type RateLimitBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { AppError, errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { randomAlias } from "../inboxes/inbox-rules";
import { assertDemoEnabled } from "./demo-access";
import { demoWindow, PLATFORM_ID, PLATFORM_SCOPE } from "./demo-rules";

/** How often a random alias that happens to be taken is drawn again. */
const RANDOM_ALIAS_ATTEMPTS = 5;

/** The answer when the caller's IP has created its hourly share of demo inboxes (spec 7.2). */
export interface DemoRateLimited {
  rateLimited: RateLimitBody;
}

const isConflict = (err: unknown) => err instanceof AppError && err.code === ErrorCode.conflict;

/**
 * Creates a platform-owned inbox on the demo domain with the demo TTL, at most
 * `demo.per_ip_per_hour` per client IP and clock hour. Public: the access check is that the demo
 * is on. The quota is taken in the inbox's transaction, so a failed creation counts nothing.
 */
export async function createDemoInbox(deps: InboxDeps, ctx: RequestCtx<Actor | null>): Promise<DemoInbox | DemoRateLimited> {
  assertDemoEnabled(deps);
  const demo = deps.config.demo;
  const ttlMs = parseDurationMs(demo.ttl);
  if (ttlMs <= 0) throw errors.unavailable("demo is misconfigured");
  for (let attempt = 1; ; attempt++) {
    const now = deps.now();
    const window = demoWindow(now);
    const address = randomAlias();
    const fullAddress = `${address}@${demo.domain.toLowerCase()}`;
    try {
      return await deps.data.write(async (repos, events) => {
        if (!(await repos.demoQuotas.take(ctx.ip, window.start, demo.per_ip_per_hour))) {
          return { rateLimited: { error: "too many demo inboxes from this IP, try again later", retry_after: window.retryAfterSeconds } };
        }
        const inbox = await repos.inboxes.create(PLATFORM_SCOPE, {
          id: randomUUID(),
          domainId: PLATFORM_ID,
          domainAssignmentId: PLATFORM_ID,
          createdBy: ctx.actor?.user_id ?? PLATFORM_ID,
          address,
          domainName: demo.domain.toLowerCase(),
          fullAddress,
          private: false,
          createdAt: new Date(now),
          expiresAt: new Date(now + ttlMs),
          ttlMs,
        });
        events.audit({
          ctx,
          action: "demo.inbox_created",
          org_id: null,
          target: { type: "inbox", id: inbox.id },
          metadata: { full_address: fullAddress },
        });
        return { inbox_id: inbox.id, address: fullAddress, expires_at: inbox.expires_at };
      });
    } catch (err) {
      // a random alias that happens to be taken is drawn again (its transaction counted nothing)
      if (attempt >= RANDOM_ALIAS_ATTEMPTS || !isConflict(err)) throw err;
    }
  }
}
