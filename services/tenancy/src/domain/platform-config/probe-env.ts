import { parseDurationMs } from "@burnbox/contracts";
import { parseAllowlist } from "@burnbox/service-kit";
import type { TenancyConfig } from "../../config";
import { probeEnv, type ProbeEnv } from "../infra-probe";

/** How the admin's SMTP and storage tests reach the network: `dns.servers`, `infra.unsafe_allowed_targets`, `infra.probe_timeout`. */
export function adminProbeEnv(config: TenancyConfig): ProbeEnv {
  return probeEnv({
    dnsServers: config.dns.servers,
    dnsTimeoutMs: config.dns.timeout_ms,
    allowed: parseAllowlist(config.infra.unsafe_allowed_targets),
    timeoutMs: parseDurationMs(config.infra.probe_timeout),
  });
}
