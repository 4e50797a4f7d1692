/** `/ws/admin-stats` (spec 6.5): every frame is `{type: "admin.stats", data: AdminStats}` (spec 2.7). */
export const ADMIN_STATS_FRAME = "admin.stats";
