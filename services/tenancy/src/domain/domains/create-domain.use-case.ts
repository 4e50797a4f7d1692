import { randomBytes, randomUUID } from "node:crypto";
import type { CreateDomainBody, Domain } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { newDkimKey } from "./dkim-key";
import { isTrusted } from "./trusted-domain";

/**
 * Adds a domain to an org, with its DKIM key (extensions 10): verified at once when trusted, else pending its DNS checks. The org's
 * row is locked while `max_domains` is checked, so two creates at the limit cannot both pass.
 */
export async function createDomain(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & CreateDomainBody): Promise<Domain> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  const trusted = isTrusted(input.domain_name, deps.config.domains.trusted);
  // extensions 10: its DKIM key, made before the transaction (a 2048-bit RSA key takes a moment)
  const dkim = await newDkimKey(deps.secrets);
  return deps.data.write(async (repos, events) => {
    await repos.orgs.lockForQuota(scope);
    const org = await repos.orgs.get(scope);
    if (!org) throw errors.notFound("organization");
    const max = withOrgDefaults(org.settings).max_domains;
    if ((await repos.domains.count(scope)) >= max) throw errors.conflict(`domain limit reached (${max})`);
    const domain = await repos.domains.create(scope, {
      id: randomUUID(),
      domainName: input.domain_name,
      description: input.description ?? null,
      status: trusted ? "verified" : "pending_verification",
      dnsVerified: trusted,
      verificationRecord: `burnbox-verify=${randomBytes(16).toString("hex")}`,
      dkim,
    });
    events.audit({
      ctx,
      action: "domain.created",
      org_id: scope.orgId,
      target: { type: "domain", id: domain.id },
      metadata: { domain_name: input.domain_name, trusted },
    });
    return domain;
  });
}
