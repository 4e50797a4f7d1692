import { paginated } from "../pagination";
import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { Email, EmailSummary, ListEmailsQuery } from "./emails.schemas";

export const emailsRoutes = defineRoutes({ service: "inbox", tag: "Emails" }, [
  {
    operationId: "listEmails",
    method: "get",
    path: "/inboxes/{id}/emails",
    auth: "user",
    scope: "team.emails.view",
    summary: "List the emails of an inbox, newest first",
    request: { params: IdParams, query: ListEmailsQuery },
    responses: { 200: { description: "Emails", schema: paginated(EmailSummary, "EmailPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "getEmail",
    method: "get",
    path: "/emails/{id}",
    auth: "user",
    scope: "team.emails.view",
    summary: "Get one email",
    request: { params: IdParams },
    responses: { 200: { description: "The email", schema: Email }, 404: errorResponses[404] },
  },
] as const);
