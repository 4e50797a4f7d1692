import { randomUUID } from "node:crypto";
import type { Actor, CreateOrgBody, Org } from "@burnbox/contracts";
import { auditEvent, errors, outboxRow } from "@burnbox/service-kit";
import { isUniqueViolation } from "../data/prisma";
import { DEFAULT_ORG_SETTINGS, orgView } from "../data/views";
import { requirePermission } from "./access.use-case";
import type { TenancyDeps } from "./deps";
import { slugify, withSuffix } from "./slug";

/** Creates an org; its creator becomes the owner. A chosen slug that is taken is a 409. */
export async function createOrg(deps: TenancyDeps, actor: Actor, body: CreateOrgBody, ip: string): Promise<Org> {
  const base = body.slug ?? slugify(body.name);
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : withSuffix(base);
    const id = randomUUID();
    try {
      const org = await deps.db.$transaction(async (tx) => {
        const created = await tx.org.create({
          data: { id, name: body.name, slug, logoUrl: body.logo_url ?? null, settings: DEFAULT_ORG_SETTINGS },
        });
        await tx.orgMember.create({ data: { orgId: id, userId: actor.user_id, role: "owner" } });
        const event = auditEvent({
          action: "org.created",
          actor,
          org_id: id,
          target_type: "org",
          target_id: id,
          ip,
          metadata: { name: body.name, slug },
        });
        await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
        return created;
      });
      deps.relay.kick();
      return orgView(org);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (body.slug || attempt >= 4) throw errors.conflict("organization slug already taken");
    }
  }
}

export async function getOrg(deps: TenancyDeps, actor: Actor, orgId: string): Promise<Org> {
  await requirePermission(deps, actor, orgId, null, "org.view", "organization");
  const org = await deps.db.org.findUnique({ where: { id: orgId } });
  if (!org) throw errors.notFound("organization");
  return orgView(org);
}
