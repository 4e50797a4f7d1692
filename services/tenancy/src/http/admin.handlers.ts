import type { adminRoutes } from "@burnbox/contracts";
import { reply, type HealthCheck, type Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { getHealth } from "../domain/admin/get-health.use-case";
import { getVersion } from "../domain/admin/get-version.use-case";
import { listAdminOrgs } from "../domain/admin/list-admin-orgs.use-case";

export const adminHandlers = (
  deps: TenancyDeps,
  opts: { checks: Record<string, HealthCheck>; version: string },
): Handlers<typeof adminRoutes> => ({
  adminListOrgs: ({ ctx, query }) => listAdminOrgs(deps, ctx, query),
  adminGetHealth: async ({ ctx }) => {
    const h = await getHealth(deps, ctx, opts.checks);
    return reply(h.status, h.body);
  },
  adminGetVersion: ({ ctx }) => getVersion(deps, ctx, opts.version),
});
