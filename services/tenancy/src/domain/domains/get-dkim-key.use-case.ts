import type { DkimKeyReply } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/**
 * `tenancy.dkim_key` (extensions 10): the key the inbox service signs a domain's outbound mail with,
 * still sealed (it crosses NATS only so; the inbox opens it with the shared `encryption.key`).
 */
export async function getDkimKey(deps: TenancyDeps, input: { domainName: string }): Promise<DkimKeyReply> {
  const domainName = input.domainName.trim().toLowerCase();
  const key = await deps.data.repos.domains.dkimSigningKey(domainName);
  return { key: key ? { domain_name: domainName, selector: key.selector, private_key_sealed: key.privateSealed } : null };
}
