/** Outbound checks of a mailer and an object store under the SSRF rules (setup and admin tests). */
export { probeSmtp, probeStorage, probeEnv, refusalMessage, SMTP_PORTS, STORAGE_PORTS } from "./infra-probe";
export type { ProbeEnv, ProbeResult, SmtpProbeConfig, StorageProbeConfig } from "./infra-probe";
