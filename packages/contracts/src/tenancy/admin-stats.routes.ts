import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { AdminStats } from "./admin-stats.schemas";

export const adminStatsRoutes = defineRoutes({ service: "tenancy", tag: "Admin" }, [
  {
    operationId: "getAdminStats",
    method: "get",
    path: "/admin/stats",
    auth: "system_admin",
    summary: "Platform statistics (spec 2.7), from counters kept from events",
    responses: { 200: { description: "Statistics", schema: AdminStats }, 401: errorResponses[401], 403: errorResponses[403] },
  },
] as const);
