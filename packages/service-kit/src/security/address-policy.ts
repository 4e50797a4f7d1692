import ipaddr from "ipaddr.js";

/**
 * Which network addresses an outbound request made for a user (a webhook, an SSO issuer) may
 * reach (SSRF rules of spec 6.4): no loopback, unspecified, private, link-local, unique-local,
 * broadcast, multicast, carrier-grade NAT or reserved address however it is spelled (IPv4-mapped
 * IPv6 is judged as the IPv4 it carries), and none of the IPv6 ranges that embed or translate an
 * IPv4 address (NAT64, 6to4, Teredo, IPv4-compatible, SIIT), only discard, or are not global
 * unicast (site-local fec0::/10, SRv6 5f00::/16): a gateway on the way may turn them into an
 * internal destination. Only addresses ipaddr.js calls "unicast" (and, for IPv6, inside
 * 2000::/3) pass. An `Allowlist` holds the operator's opt-in
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

/** What a refused IPv6 range is called in a refusal (ipaddr.js's range names). */
const V6_NAMES: Readonly<Record<string, string>> = {
  rfc6052: "NAT64",
  rfc6145: "IPv4-translated (SIIT)",
  "6to4": "6to4",
  teredo: "Teredo",
  discard: "discard-only",
  deprecatedSiteLocal: "deprecated site-local",
  segmentRouting: "SRv6 segment identifiers",
};

/** IPv6 global unicast (RFC 4291): anything outside it (IPv4-compatible `::/96` included) is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR("64:ff9b:1::/48");

function v6Name(ip: ipaddr.IPv6, range: string): string {
  if (range === "rfc6052" && ip.match(LOCAL_NAT64)) return "local-use NAT64";
  if (ip.match(IPV4_COMPATIBLE)) return "IPv4-compatible";
  return V6_NAMES[range] ?? range;
}

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
  // allow-by-exception: only what ipaddr.js calls plain "unicast" passes; every special range it
  // knows (loopback, private, link-local, CGNAT, multicast, reserved, NAT64, 6to4, Teredo, SIIT,
  // site-local fec0::/10, SRv6 5f00::/16, ORCHID, benchmarking, AS112, AMT...) is refused
  const range = ip.range();
  const v6 = ip.kind() === "ipv6" ? (ip as ipaddr.IPv6) : null;
  if (range !== "unicast") return `address ${ip.toString()} is not publicly routable (${v6 ? v6Name(v6, range) : range})`;
  if (v6 && !v6.match(GLOBAL_UNICAST_V6))
    return `address ${ip.toString()} is not publicly routable (${v6Name(v6, "outside IPv6 global unicast")})`;
  return null;
}

/** Host name as the URL parser normalised it, without brackets or trailing dots. */
export function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
}
