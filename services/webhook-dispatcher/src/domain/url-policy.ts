import ipaddr from "ipaddr.js";
import { EMPTY_ALLOWLIST, addressProblem, hostOf, type Allowlist } from "@burnbox/service-kit";

/**
 * SSRF rules (spec 6.4). At create/update: http(s) only, and no loopback, unspecified,
 * private, link-local or unique-local address however it is spelled (decimal, octal, hex,
 * shortened IPv4, IPv4-mapped or bracketed IPv6, trailing dots, mixed case), no localhost, no
 * *.internal / *.local names, no metadata address, and none of the IPv6 ranges that embed or
 * translate an IPv4 address (NAT64, 6to4, Teredo, IPv4-compatible, SIIT) or only discard: a
 * gateway on the way may turn them into an internal IPv4 destination, and no public webhook
 * receiver lives there. At dispatch: every resolved address is checked again by the same rules
 * (`addressProblem`, in service-kit: the SSO issuer check uses them too). `allowed` holds the
 * operator's opt-in exemptions (`webhooks.unsafe_allowed_targets`), for local test receivers only.
 */
/** Null when `raw` is an acceptable webhook URL, else the reason (a 400 message). */
export function webhookUrlProblem(raw: string, allowed: Allowlist = EMPTY_ALLOWLIST): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "url must be an absolute http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url must use http or https";
  if (url.username || url.password) return "url must not carry credentials";
  const host = hostOf(url);
  if (!host) return "url must have a host";
  if (allowed.hosts.has(host)) return null;
  if (ipaddr.isValid(host)) {
    const problem = addressProblem(host, allowed);
    return problem ? "url host is not allowed: internal or reserved address" : null;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local") || !host.includes(".")) {
    return "url host is not allowed: internal name";
  }
  return null;
}
