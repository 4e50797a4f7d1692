import ipaddr from "ipaddr.js";

export type CidrList = Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

/** Parses IPs and CIDR ranges (v4 and v6); a bare IP is a /32 or /128. Throws on a bad entry. */
export function parseCidrs(entries: readonly string[]): CidrList {
  return entries.map((e) => {
    if (e.includes("/")) return ipaddr.parseCIDR(e);
    const ip = ipaddr.parse(e);
    return [ip, ip.kind() === "ipv4" ? 32 : 128];
  });
}

/** Unwraps IPv4-mapped IPv6 (`::ffff:10.0.0.1`) so one address has one spelling. */
export function normalizeIp(raw: string): string {
  const s = raw.trim().replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(s)) return s;
  const ip = ipaddr.parse(s);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) return (ip as ipaddr.IPv6).toIPv4Address().toString();
  return ip.toString();
}

export function ipInList(ip: string, list: CidrList): boolean {
  const s = normalizeIp(ip);
  if (!ipaddr.isValid(s)) return false;
  const addr = ipaddr.parse(s);
  return list.some(([range, bits]) => {
    if (range.kind() !== addr.kind()) return false;
    return addr.match([range, bits] as never);
  });
}

/**
 * The client IP: the socket peer, unless that peer is a trusted proxy, in which case we walk
 * X-Forwarded-For from the right and take the first address that is not a trusted proxy.
 * Entries left of an untrusted hop are the client's own claims and are never believed.
 */
export function clientIp(peer: string, forwardedFor: string | undefined, trusted: CidrList): string {
  let current = normalizeIp(peer);
  if (!forwardedFor || trusted.length === 0 || !ipInList(current, trusted)) return current;
  const hops = forwardedFor
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] as string);
    if (!ipaddr.isValid(hop)) return current;
    current = hop;
    if (!ipInList(hop, trusted)) return hop;
  }
  return current;
}

export function isPrivateOrLoopback(ip: string): boolean {
  const s = normalizeIp(ip);
  if (!ipaddr.isValid(s)) return false;
  const range = ipaddr.parse(s).range();
  return ["loopback", "private", "uniqueLocal", "linkLocal"].includes(range);
}
