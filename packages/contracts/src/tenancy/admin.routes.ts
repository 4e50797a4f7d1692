import { paginated } from "../pagination";
import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { AdminHealth, AdminOrg, AdminOrgsQuery, AdminVersion } from "./admin.schemas";

/** The admin console's platform views (system admins only, never an API key). */
export const adminRoutes = defineRoutes({ service: "tenancy", tag: "Admin" }, [
  {
    operationId: "adminListOrgs",
    method: "get",
    path: "/admin/orgs",
    auth: "system_admin",
    summary: "Every organization (q matches name or slug), with member, team and domain counts",
    request: { query: AdminOrgsQuery },
    responses: {
      200: { description: "Orgs", schema: paginated(AdminOrg, "AdminOrgPage") },
      400: errorResponses[400],
      403: errorResponses[403],
    },
  },
  {
    operationId: "adminGetHealth",
    method: "get",
    path: "/admin/health",
    auth: "system_admin",
    summary: "Postgres, Redis, NATS, storage, the mailer and every service, with latency (503 when one is in error)",
    responses: {
      200: { description: "Healthy", schema: AdminHealth },
      403: errorResponses[403],
      503: { description: "Degraded: at least one check is in error", schema: AdminHealth },
    },
  },
  {
    operationId: "adminGetVersion",
    method: "get",
    path: "/admin/version",
    auth: "system_admin",
    summary: "The running version, and the build's commit and date when recorded",
    responses: { 200: { description: "Version", schema: AdminVersion }, 403: errorResponses[403] },
  },
] as const);
