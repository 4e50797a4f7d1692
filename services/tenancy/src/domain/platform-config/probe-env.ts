import { parseDurationMs } from "@burnbox/contracts";
import type { TenancyConfig } from "../../config";
import { probeEnv, type ProbeEnv } from "../infra-probe";

/** How the admin's SMTP and storage tests reach the network: `dns.servers`, `infra.unsafe_allowed_targets`, `infra.probe_timeout`, `mailer.allowed_ports`. */
export function adminProbeEnv(config: TenancyConfig): ProbeEnv {
  return probeEnv({
    dns: config.dns,
    allowedTargets: config.infra.unsafe_allowed_targets,
    timeoutMs: parseDurationMs(config.infra.probe_timeout),
    smtpPorts: config.mailer.allowed_ports,
  });
}
