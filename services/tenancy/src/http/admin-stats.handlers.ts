import type { adminStatsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { getAdminStats } from "../domain/admin-stats/get-admin-stats.use-case";

export const adminStatsHandlers = (deps: TenancyDeps): Handlers<typeof adminStatsRoutes> => ({
  getAdminStats: ({ ctx }) => getAdminStats(deps, ctx),
});
