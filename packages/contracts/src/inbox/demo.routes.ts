import { RateLimitBody } from "../errors";
import { PaginationQuery, paginated } from "../pagination";
import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { EmailSummary } from "./emails.schemas";
import { DemoInbox, DemoStatus } from "./demo.schemas";

/** The public demo: no credential; the gateway's per-IP limit applies, and POST /try/inbox has an hourly one of its own. */
export const demoRoutes = defineRoutes({ service: "inbox", tag: "Demo" }, [
  {
    operationId: "getDemoStatus",
    method: "get",
    path: "/try/status",
    auth: "public",
    summary: "Whether the public demo is enabled",
    responses: { 200: { description: "The demo's status", schema: DemoStatus } },
  },
  {
    operationId: "createDemoInbox",
    method: "post",
    path: "/try/inbox",
    auth: "public",
    summary: "Create a demo inbox on the demo domain with the demo TTL (at most demo.per_ip_per_hour per client IP)",
    responses: {
      201: { description: "Created", schema: DemoInbox },
      404: { description: "The demo is disabled" },
      429: { description: "Too many demo inboxes from this IP this hour", schema: RateLimitBody },
    },
  },
  {
    operationId: "listDemoEmails",
    method: "get",
    path: "/try/inbox/{id}/emails",
    auth: "public",
    summary: "List the emails of a demo inbox, newest first",
    request: { params: IdParams, query: PaginationQuery },
    responses: {
      200: { description: "Emails", schema: paginated(EmailSummary, "DemoEmailPage") },
      400: errorResponses[400],
      404: { description: "Not a demo inbox, or the demo is disabled" },
    },
  },
] as const);
