import ipaddr from "ipaddr.js";

/**
 * Which network addresses an outbound request made for a user (a webhook, an SSO issuer) may
 * reach (SSRF rules of spec 6.4): no loopback, unspecified, private, link-local, unique-local,
 * broadcast, multicast, carrier-grade NAT or reserved address however it is spelled (IPv4-mapped
 * IPv6 is judged as the IPv4 it carries), and none of the IPv6 ranges that embed or translate an
 * IPv4 address (NAT64, 6to4, Teredo, IPv4-compatible, SIIT) or only discard: a gateway on the way
 * may turn them into an internal IPv4 destination. An `Allowlist` holds the operator's opt-in
 * exemptions (host names or CIDR ranges), for local test targets only.
 */
export interface Allowlist {
  hosts: Set<string>;
  ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export function parseAllowlist(entries: readonly string[]): Allowlist {
  const hosts = new Set<string>();
  const ranges: Allowlist["ranges"] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/\.+$/, "");
    if (!entry) continue;
    if (entry.includes("/")) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) ranges.push([ipaddr.parse(entry), ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128]);
    else hosts.add(entry);
  }
  return { hosts, ranges };
}

export const EMPTY_ALLOWLIST: Allowlist = { hosts: new Set(), ranges: [] };

/** IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. */
function normalizeIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) return (ip as ipaddr.IPv6).toIPv4Address();
  return ip;
}

const REFUSED_V4 = new Set(["unspecified", "loopback", "private", "linkLocal", "broadcast", "multicast", "carrierGradeNat", "reserved"]);
const REFUSED_V6 = new Set(["unspecified", "loopback", "uniqueLocal", "linkLocal", "multicast", "reserved", "ipv4Mapped"]);

/** IPv6 ranges refused outright, whatever IPv4 address they carry (issue 10, item 5). */
const REFUSED_V6_RANGES: ReadonlyArray<[string, ipaddr.IPv6, number]> = (
  [
    ["IPv4-compatible", "::/96"],
    ["IPv4-translated (SIIT)", "::ffff:0:0:0/96"],
    ["NAT64", "64:ff9b::/96"],
    ["local-use NAT64", "64:ff9b:1::/48"],
    ["discard-only", "100::/64"],
    ["Teredo", "2001::/32"],
    ["6to4", "2002::/16"],
  ] as const
).map(([name, cidr]) => {
  const [range, bits] = ipaddr.IPv6.parseCIDR(cidr);
  return [name, range, bits];
});

function ipAllowed(ip: ipaddr.IPv4 | ipaddr.IPv6, allowed: Allowlist): boolean {
  return allowed.ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

/** Null when the address may be connected to, else why not. */
export function addressProblem(address: string, allowed: Allowlist = EMPTY_ALLOWLIST): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = normalizeIp(address);
  } catch {
    return "unparseable address";
  }
  if (ipAllowed(ip, allowed)) return null;
  const range = ip.range();
  const refused = ip.kind() === "ipv4" ? REFUSED_V4.has(range) : REFUSED_V6.has(range);
  if (refused) return `address ${ip.toString()} is not publicly routable (${range})`;
  const embedding = ip.kind() === "ipv6" ? REFUSED_V6_RANGES.find(([, r, bits]) => ip.match(r, bits)) : undefined;
  return embedding ? `address ${ip.toString()} is not a public webhook target (${embedding[0]})` : null;
}

/** Host name as the URL parser normalised it, without brackets or trailing dots. */
export function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
}
