import { RpcName, type AdminStats } from "@burnbox/contracts";
import { rpcRequest, RpcError } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

/**
 * Spec 2.7 from cheap sources, never from the mail itself: the analytics counters the consumers
 * keep from inbox events (one row per team), a count of tenancy's domains and teams, and
 * identity's count of users (it owns them). 503 when identity does not answer.
 */
export async function computeAdminStats(deps: TenancyDeps): Promise<AdminStats> {
  const { analytics } = deps.data.repos;
  const users = rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.countUsers, {}).catch((err: unknown) => {
    if (err instanceof RpcError) throw errors.unavailable("identity service unavailable");
    throw err;
  });
  const [totals, footprint, { total_users }] = await Promise.all([analytics.platformTotals(), analytics.platformFootprint(), users]);
  return {
    total_emails: totals.emails,
    active_inboxes: totals.activeInboxes,
    total_domains: footprint.domains,
    total_users,
    total_teams: footprint.teams,
    storage_used_bytes: totals.emailBytes,
  };
}
