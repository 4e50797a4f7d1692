import { PaginationQuery, paginated } from "../pagination";
import { IdParams, MessageBody, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { Session } from "./sessions.schemas";

export const sessionsRoutes = defineRoutes({ service: "identity", tag: "Sessions" }, [
  {
    operationId: "listSessions",
    method: "get",
    path: "/auth/sessions",
    auth: "user_only",
    summary: "The caller's active sessions",
    request: { query: PaginationQuery },
    responses: { 200: { description: "Sessions", schema: paginated(Session, "SessionPage") } },
  },
  {
    operationId: "revokeSession",
    method: "delete",
    path: "/auth/sessions/{id}",
    auth: "user_only",
    summary: "Revoke one of the caller's sessions",
    request: { params: IdParams },
    responses: { 200: { description: "Revoked", schema: MessageBody }, 404: errorResponses[404] },
  },
  {
    operationId: "revokeAllSessions",
    method: "delete",
    path: "/auth/sessions",
    auth: "user_only",
    summary: "Revoke every session of the caller but the current one",
    responses: { 200: { description: "Revoked", schema: MessageBody } },
  },
] as const);
