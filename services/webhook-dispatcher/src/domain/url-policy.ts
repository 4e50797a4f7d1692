import { CONTROL_CHARACTER, EMPTY_ALLOWLIST, hostOf, hostProblem, type Allowlist } from "@burnbox/service-kit/security";

/**
 * SSRF rules (spec 6.4) of a webhook URL, at create, update and dispatch: http(s) only, no
 * credentials, no control character anywhere (a newline the URL parser would drop silently is
 * refused, not stored), and the host held to the kit's outbound rules (`hostProblem`: no internal
 * name, no loopback, private, link-local, unique-local, site-local, NAT64, 6to4, SRv6... address
 * however it is spelled). At dispatch every resolved address is checked again by the kit's guard.
 * `allowed` holds the operator's opt-in exemptions (`webhooks.unsafe_allowed_targets`), for local
 * test receivers only.
 */
/** Null when `raw` is an acceptable webhook URL, else the reason (a 400 message). */
export function webhookUrlProblem(raw: string, allowed: Allowlist = EMPTY_ALLOWLIST): string | null {
  if (CONTROL_CHARACTER.test(raw)) return "url must not contain control characters";
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
  const problem = hostProblem(host, allowed);
  return problem ? `url host is not allowed: ${problem}` : null;
}
