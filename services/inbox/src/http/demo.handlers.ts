import type { demoRoutes } from "@burnbox/contracts";
import type { InboxDeps } from "../domain/deps";
import { reply, type Handlers } from "@burnbox/service-kit/http";
import { createDemoInbox } from "../domain/demo/create-demo-inbox.use-case";
import { getDemoStatus } from "../domain/demo/get-demo-status.use-case";
import { listDemoEmails } from "../domain/demo/list-demo-emails.use-case";

export const demoHandlers = (deps: InboxDeps): Handlers<typeof demoRoutes> => ({
  getDemoStatus: () => getDemoStatus(deps),
  createDemoInbox: async ({ ctx, http }) => {
    const created = await createDemoInbox(deps, ctx);
    if (!("rateLimited" in created)) return created;
    // spec 7.2: not the envelope; Retry-After equals retry_after
    const body = created.rateLimited;
    http.res.setHeader("Retry-After", String(body.retry_after));
    http.res.setHeader("X-RateLimit-Remaining", "0");
    return reply(429, body);
  },
  listDemoEmails: ({ params, query }) => listDemoEmails(deps, { inboxId: params.id, page: query }),
});
