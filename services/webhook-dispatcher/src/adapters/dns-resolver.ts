import { hostResolver, type Allowlist } from "@burnbox/service-kit/security";
import type { Resolver } from "./webhook-sender";

/**
 * The resolver of the dispatch-time address check (contract notes: `dns.servers`, like domain
 * verification): the kit's outbound resolver. Hosts of the operator's allow-list
 * (`webhooks.unsafe_allowed_targets`, local test receivers such as `localhost`) keep the system's
 * lookup, which knows the hosts file.
 */
export function configuredResolver(dns: { servers: readonly string[]; timeout_ms: number }, allowed: Allowlist): Resolver {
  return hostResolver(dns, allowed);
}
