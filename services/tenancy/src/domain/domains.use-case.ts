import { randomBytes, randomUUID } from "node:crypto";
import type { Actor, AssignDomainBody, CreateDomainBody, Domain, DomainAssignment } from "@burnbox/contracts";
import { auditEvent, errors, outboxRow } from "@burnbox/service-kit";
import { isUniqueViolation } from "../data/prisma";
import { assignmentView, domainView } from "../data/views";
import { requirePermission } from "./access.use-case";
import type { TenancyDeps } from "./deps";

/** A domain named in `domains.trusted`, or a subdomain of one, counts as verified without DNS. */
export function isTrusted(domainName: string, trusted: readonly string[]): boolean {
  const name = domainName.toLowerCase().replace(/\.$/, "");
  return trusted.some((t) => {
    const d = t.toLowerCase().replace(/\.$/, "");
    return d.length > 0 && (name === d || name.endsWith(`.${d}`));
  });
}

export async function createDomain(deps: TenancyDeps, actor: Actor, orgId: string, body: CreateDomainBody, ip: string): Promise<Domain> {
  await requirePermission(deps, actor, orgId, null, "org.domains.manage", "organization");
  const trusted = isTrusted(body.domain_name, deps.config.domains.trusted);
  const id = randomUUID();
  try {
    const domain = await deps.db.$transaction(async (tx) => {
      const d = await tx.domain.create({
        data: {
          id,
          orgId,
          domainName: body.domain_name,
          description: body.description ?? null,
          status: trusted ? "verified" : "pending_verification",
          mxVerified: trusted,
          txtVerified: trusted,
          spfVerified: trusted,
          verificationRecord: `burnbox-verify=${randomBytes(16).toString("hex")}`,
          settings: {},
        },
        include: { _count: { select: { assignments: true } } },
      });
      const event = auditEvent({
        action: "domain.created",
        actor,
        org_id: orgId,
        target_type: "domain",
        target_id: id,
        ip,
        metadata: { domain_name: body.domain_name, trusted },
      });
      await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
      return d;
    });
    deps.relay.kick();
    return domainView(domain);
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict("domain already exists");
    throw err;
  }
}

/** Assigns a verified domain of the org to one of its teams. */
export async function assignDomain(
  deps: TenancyDeps,
  actor: Actor,
  orgId: string,
  teamId: string,
  body: AssignDomainBody,
  ip: string,
): Promise<DomainAssignment> {
  await requirePermission(deps, actor, orgId, teamId, "team.domains.manage", "team");
  const domain = await deps.db.domain.findFirst({ where: { id: body.domain_id, orgId } });
  if (!domain) throw errors.notFound("domain");
  if (domain.status !== "verified") throw errors.validation("domain must be verified before it is assigned");
  const id = randomUUID();
  try {
    const assignment = await deps.db.$transaction(async (tx) => {
      const a = await tx.domainAssignment.create({
        data: { id, teamId, domainId: domain.id, accessLevel: body.access_level, settings: {} },
        include: { domain: true },
      });
      const event = auditEvent({
        action: "domain.assigned",
        actor,
        org_id: orgId,
        team_id: teamId,
        target_type: "domain_assignment",
        target_id: id,
        ip,
        metadata: { domain_id: domain.id, access_level: body.access_level },
      });
      await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
      return a;
    });
    deps.relay.kick();
    return assignmentView(assignment);
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict("domain already assigned to this team");
    throw err;
  }
}
