import { randomUUID } from "node:crypto";
import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";

/**
 * Tenancy's side of the conversation over the real NATS, for the inbox's integration tests: one
 * full-access, verified assignment of `domain` to the team, and authorization that lets the
 * team's `members` in (everyone when `members` is omitted).
 */
export function serveTenancyStandIn(
  infra: Infra,
  ns: string,
  world: { assignmentId: string; orgId: string; teamId: string; domain: string; members?: ReadonlySet<string>; maxInboxes?: number },
): Array<{ stop(): Promise<void> }> {
  const assignment = {
    id: world.assignmentId,
    org_id: world.orgId,
    team_id: world.teamId,
    domain_id: randomUUID(),
    domain_name: world.domain,
    access_level: "full" as const,
    domain_verified: true,
    team_archived: false,
    default_ttl_seconds: 600,
    max_ttl_seconds: 86400,
    max_inboxes_per_domain: world.maxInboxes ?? 1000,
  };
  return [
    serveRpc(
      infra.nc,
      ns,
      RpcName.getAssignment,
      async (req) => ({ assignment: req.assignment_id === world.assignmentId ? assignment : null }),
      infra.logger,
    ),
    serveRpc(
      infra.nc,
      ns,
      RpcName.authorize,
      async (req) =>
        (!world.members || world.members.has(req.actor.user_id)) && req.team_id === world.teamId
          ? { allowed: true, reason: null }
          : { allowed: false, reason: "not_member" },
      infra.logger,
    ),
  ];
}
