import { Resolver as DnsResolver } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import type { Allowlist } from "@burnbox/service-kit";
import { systemResolver, type Resolver } from "./sender";

/** "No such name" and "no such record" leave that family empty; anything else (SERVFAIL, timeout) is an error. */
const orEmpty = async (lookup: Promise<string[]>): Promise<string[]> => {
  try {
    return await lookup;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw err;
  }
};

/**
 * The resolver of the dispatch-time address check (contract notes: `dns.servers`, like domain
 * verification): A and AAAA records asked of `servers`, or the system's lookup when none are set.
 * Hosts of the operator's allow-list (`webhooks.unsafe_allowed_targets`, local test receivers such
 * as `localhost`) keep the system's lookup, which knows the hosts file.
 */
export function configuredResolver(dns: { servers: readonly string[]; timeout_ms: number }, allowed: Allowlist): Resolver {
  if (dns.servers.length === 0) return systemResolver;
  const servers = [...dns.servers];
  return async (hostname) => {
    if (allowed.hosts.has(hostname.toLowerCase())) return systemResolver(hostname);
    const resolver = new DnsResolver({ timeout: dns.timeout_ms, tries: 1 });
    resolver.setServers(servers);
    const [v4, v6] = await Promise.all([orEmpty(resolver.resolve4(hostname)), orEmpty(resolver.resolve6(hostname))]);
    const addresses: LookupAddress[] = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
    if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no addresses`), { code: "ENOTFOUND" });
    return addresses;
  };
}
