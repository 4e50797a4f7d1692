import { randomUUID } from "node:crypto";
import type { Domain } from "@burnbox/contracts";
import type { ChangeEvents, OrgScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyRepos } from "../../data/repositories";
import type { TenancyDeps } from "../deps";
import { verdict } from "./dns-check";

/**
 * One DNS check of a domain inside the caller's change (MX, TXT, SPF, and its DKIM key's record,
 * extensions 10): the flags and status it derives are
 * stored with a history row; a DNS failure keeps the previous flags and is recorded as the
 * history row's error. Becoming verified emits `domain.verified`.
 */
export async function checkDomainDns(
  deps: TenancyDeps,
  repos: TenancyRepos,
  events: ChangeEvents,
  input: {
    scope: OrgScope;
    domain: Pick<Domain, "id" | "domain_name" | "verification_record" | "status">;
    trigger: "create" | "manual" | "worker";
    ctx: RequestCtx | null;
  },
): Promise<Domain> {
  const { scope, domain } = input;
  let found: ReturnType<typeof verdict> | null = null;
  let error: string | null = null;
  const dkim = await repos.domains.dkimPublic(scope, domain.id);
  try {
    found = verdict(await deps.dnsLookup(domain.domain_name, dkim?.selector ?? null), {
      mxTarget: deps.config.smtp.hostname,
      verificationRecord: domain.verification_record,
      dkimPublicKey: dkim?.publicKey ?? null,
    });
  } catch (err) {
    error = `DNS lookup failed: ${(err as { code?: string }).code ?? "error"}`;
  }
  const updated = await repos.domains.recordCheck(scope, domain.id, {
    id: randomUUID(),
    at: new Date(deps.now()),
    trigger: input.trigger,
    flags: found?.flags ?? null,
    status: found?.status ?? null,
    error,
  });
  if (updated.status === "verified" && domain.status !== "verified") {
    events.event("domain.verified", {
      org_id: scope.orgId,
      team_id: null,
      data: { domain_id: domain.id, domain_name: domain.domain_name },
    });
  }
  events.audit({
    ctx: input.ctx,
    action: "domain.verification_checked",
    org_id: scope.orgId,
    target: { type: "domain", id: domain.id },
    metadata: {
      domain_name: domain.domain_name,
      trigger: input.trigger,
      status: updated.status,
      ...(found ? { checks: found.flags } : { error }),
    },
  });
  return updated;
}
