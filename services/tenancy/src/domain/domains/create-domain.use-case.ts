import { randomBytes, randomUUID } from "node:crypto";
import type { CreateDomainBody, Domain } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { isTrusted } from "./trusted-domain";

/** Adds a domain to an org: verified at once when trusted, else pending its DNS checks. */
export async function createDomain(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & CreateDomainBody): Promise<Domain> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  const trusted = isTrusted(input.domain_name, deps.config.domains.trusted);
  return deps.data.write(async (repos, events) => {
    const domain = await repos.domains.create(scope, {
      id: randomUUID(),
      domainName: input.domain_name,
      description: input.description ?? null,
      status: trusted ? "verified" : "pending_verification",
      dnsVerified: trusted,
      verificationRecord: `burnbox-verify=${randomBytes(16).toString("hex")}`,
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
