import { z } from "../zod";
import { AdminStats } from "./admin-stats.schemas";

/** The platform's figures (spec 2.7) for the admin-stats stream: one request per interval per replica. */
export const AdminStatsRequest = z.object({});
export const AdminStatsReply = AdminStats;

/** Tenancy: the platform's figures for realtime's admin-stats stream. */
export const adminStatsRpc = {
  adminStats: { name: "tenancy.admin_stats", request: AdminStatsRequest, reply: AdminStatsReply },
} as const;
