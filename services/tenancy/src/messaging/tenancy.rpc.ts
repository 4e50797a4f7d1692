import { RpcName, isOrgPermission, isTeamPermission, type Permission } from "@burnbox/contracts";
import { serveRpc, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { authorize } from "../domain/access/authorize.use-case";
import { listActorTeams } from "../domain/access/list-actor-teams.use-case";
import { teamScopes } from "../domain/access/team-scopes.use-case";
import type { TenancyDeps } from "../domain/deps";
import { getAssignment } from "../domain/domain-assignments/get-assignment.use-case";
import { getDkimKey } from "../domain/domains/get-dkim-key.use-case";
import { checkInvite } from "../domain/invites/check-invite.use-case";
import { redeemRegistrationInvite } from "../domain/invites/redeem-registration-invite.use-case";
import { checkProvisioningTarget } from "../domain/provisioning/check-provisioning-target.use-case";
import { provisionMembership } from "../domain/provisioning/provision-membership.use-case";
import { ssoEnforced } from "../domain/provisioning/sso-enforced.use-case";
import { teamNames } from "../domain/provisioning/team-names.use-case";

/** The request schemas check the permission is known; this narrows their `string` to the type. */
function permission(p: string): Permission {
  if (isTeamPermission(p) || isOrgPermission(p)) return p;
  throw new Error(`unknown permission ${p}`);
}

/** The request/reply subjects tenancy answers for the other services. */
export function serveTenancyRpc(nc: NatsConnection, deps: TenancyDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(
      nc,
      ns,
      RpcName.authorize,
      (req) => authorize(deps, { actor: req.actor, orgId: req.org_id, teamId: req.team_id, permission: permission(req.permission) }),
      logger,
    ),
    serveRpc(
      nc,
      ns,
      RpcName.listActorTeams,
      (req) => listActorTeams(deps, { actor: req.actor, permission: permission(req.permission) }),
      logger,
    ),
    serveRpc(nc, ns, RpcName.getAssignment, (req) => getAssignment(deps, { assignmentId: req.assignment_id }), logger),
    serveRpc(nc, ns, RpcName.dkimKey, (req) => getDkimKey(deps, { domainName: req.domain_name }), logger),
    serveRpc(nc, ns, RpcName.checkProvisioningTarget, (req) => checkProvisioningTarget(deps, req), logger),
    serveRpc(nc, ns, RpcName.provisionMembership, (req) => provisionMembership(deps, req), logger),
    serveRpc(nc, ns, RpcName.ssoEnforced, (req) => ssoEnforced(deps, req), logger),
    serveRpc(nc, ns, RpcName.teamNames, (req) => teamNames(deps, req), logger),
    serveRpc(nc, ns, RpcName.checkInvite, (req) => checkInvite(deps, req), logger),
    serveRpc(
      nc,
      ns,
      RpcName.redeemInvite,
      (req) => redeemRegistrationInvite(deps, logger, { tokenHash: req.token_hash, userId: req.user_id, email: req.email }),
      logger,
    ),
    serveRpc(nc, ns, RpcName.teamScopes, (req) => teamScopes(deps, { actor: req.actor, orgId: req.org_id, teamId: req.team_id }), logger),
  ];
}
