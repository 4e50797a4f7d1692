import { lookup } from "node:dns";
import { Resolver } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { addressProblem, type Allowlist } from "@burnbox/service-kit";

/** Why a probe was refused before any connection: the message the caller sees (generic on purpose). */
export class RefusedTarget extends Error {}

/** Every address of a host name; the `dns.servers` resolvers when given, else the system's. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export function hostResolver(servers: readonly string[], timeoutMs: number): HostResolver {
  if (servers.length === 0) {
    return (hostname) =>
      new Promise((resolve, reject) =>
        lookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses.map((a) => a.address)))),
      );
  }
  return async (hostname) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    resolver.setServers([...servers]);
    const settle = (p: Promise<string[]>) => p.catch(() => [] as string[]);
    const [v4, v6] = await Promise.all([settle(resolver.resolve4(hostname)), settle(resolver.resolve6(hostname))]);
    return [...v4, ...v6];
  };
}

/** The host as the caller wrote it: lower case, no brackets, no trailing dots. */
export const normalHost = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");

const internalName = (host: string): boolean =>
  host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local") || !host.includes(".");

/** A checked destination: the one address the socket goes to, and the name it stands for (SNI, Host). */
export interface PinnedTarget {
  host: string;
  address: string;
  family: 4 | 6;
  /** A net/http `lookup` that answers the checked address whatever the name, so nothing resolves twice. */
  lookup: LookupFunction;
}

/**
 * Resolves `host` once and applies the SSRF rules of spec 6.4 (service-kit's `addressProblem`):
 * internal names are refused by name, and every address of the answer must be public, unless the
 * operator's allow-list (`infra.unsafe_allowed_targets`, local test targets only) names the host or
 * covers the address. The answer is pinned: the connection goes to the address that was checked.
 */
export async function pinTarget(rawHost: string, opts: { resolve: HostResolver; allowed: Allowlist }): Promise<PinnedTarget> {
  const host = normalHost(rawHost);
  if (!host) throw new RefusedTarget("host is required");
  const exemptHost = opts.allowed.hosts.has(host);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    if (!exemptHost && (internalName(host) || host === "metadata.google.internal")) throw new RefusedTarget("host is not allowed");
    try {
      addresses = await opts.resolve(host);
    } catch {
      throw new RefusedTarget("host could not be resolved");
    }
    if (addresses.length === 0) throw new RefusedTarget("host could not be resolved");
  }
  if (!exemptHost && addresses.some((a) => addressProblem(a, opts.allowed) !== null)) throw new RefusedTarget("host is not allowed");
  const address = addresses[0]!;
  const family = isIP(address) === 6 ? 6 : 4;
  const pinned: LookupFunction = (_name, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { host, address, family, lookup: pinned };
}
