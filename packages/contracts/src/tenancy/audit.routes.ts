import { paginated } from "../pagination";
import { OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { AuditEntry, ExportAuditQuery, ListAuditQuery } from "./audit.schemas";

const AuditPage = paginated(AuditEntry, "AuditEntryPage");

export const auditRoutes = defineRoutes({ service: "tenancy", tag: "Audit" }, [
  {
    operationId: "listOrgAudit",
    method: "get",
    path: "/orgs/{orgId}/audit",
    auth: "user",
    summary: "The org's audit log, newest first, narrowed by the filters",
    request: { params: OrgParams, query: ListAuditQuery },
    responses: {
      200: { description: "Audit entries", schema: AuditPage },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
  {
    operationId: "exportOrgAudit",
    method: "get",
    path: "/orgs/{orgId}/audit/export",
    auth: "user",
    summary:
      "The org's audit log as a CSV or JSON attachment (newest first, the list's filters, at most 10,000 rows; X-Truncated: true when capped)",
    request: { params: OrgParams, query: ExportAuditQuery },
    responses: {
      200: { description: "text/csv (the notes' columns) or application/json (an array of entries), as an attachment" },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
] as const);

export const adminAuditRoutes = defineRoutes({ service: "tenancy", tag: "Admin audit" }, [
  {
    operationId: "adminListAudit",
    method: "get",
    path: "/admin/audit",
    auth: "system_admin",
    summary: "Every audit entry of the platform, newest first, narrowed by the filters",
    request: { query: ListAuditQuery },
    responses: {
      200: { description: "Audit entries", schema: AuditPage },
      400: errorResponses[400],
      401: errorResponses[401],
      403: errorResponses[403],
    },
  },
] as const);
