import path from "node:path";
import { z } from "zod";
import { Duration } from "@burnbox/contracts";
import {
  baseConfigShape,
  databaseShape,
  dnsShape,
  encryptionShape,
  loadConfig,
  mailShape,
  mailerPortsShape,
  requiredInProduction,
} from "@burnbox/service-kit/runtime";

export const TenancyConfig = z.object({
  ...baseConfigShape("tenancy", 8102),
  ...databaseShape("burnbox_tenancy"),
  domains: z
    .object({
      /** Domains (and their subdomains) that count as verified without DNS: local runs and tests. */
      trusted: z.array(z.string().toLowerCase()).default([]),
    })
    .prefault({}),
  /** Resolvers (`host:port`) for domain verification and the outbound probes; empty = the system's. Tests run their own. */
  ...dnsShape(),
  /** The configured mailer (identity's `mail.*`): what GET /admin/config/mailer shows while none is saved. */
  ...mailShape(),
  /** `mailer.allowed_ports` (BB_MAILER_ALLOWED_PORTS): the ports a saved platform mailer may use. */
  ...mailerPortsShape(),
  smtp: z
    .object({
      /** The SMTP intake's host name: a domain's MX record must point at it. */
      hostname: z.string().toLowerCase().default("mx.burnbox.local"),
    })
    .prefault({}),
  setup: z
    .object({
      /**
       * The first-run setup token (`BB_SETUP_TOKEN`); empty = one is generated, stored hashed for
       * every replica, and logged once by the replica that made it.
       */
      token: z.string().max(500).default(""),
    })
    .prefault({}),
  build: z
    .object({
      /** Set at build time (`BB_BUILD_COMMIT`, `BB_BUILD_DATE`); shown by GET /admin/version when set. */
      commit: z.string().max(100).default(""),
      date: z.string().max(100).default(""),
    })
    .prefault({}),
  infra: z
    .object({
      /**
       * Hosts or CIDR ranges the SMTP and storage tests (setup, admin) may reach despite the SSRF
       * rules: local test targets only; logged as unsafe at start when set.
       */
      unsafe_allowed_targets: z.array(z.string().trim().toLowerCase().min(1)).default([]),
      /** How long one SMTP or storage test may take. */
      probe_timeout: Duration.default("10s"),
    })
    .prefault({}),
  /** 64 hex (AES-256-GCM) for the stored mailer password and storage secret key; empty = storing a secret is refused. */
  ...encryptionShape(),
  invites: z
    .object({
      /** How long an invite link stays valid. */
      ttl: Duration.default("48h"),
    })
    .prefault({}),
  workers: z
    .object({
      /** How often unverified domains are checked again. */
      domain_verify_interval: Duration.default("1h"),
    })
    .prefault({}),
  audit: z
    .object({
      /** How long audit entries are kept; older ones are deleted by the retention worker. */
      retention: Duration.default("365d"),
      /** How often the retention worker runs. */
      retention_interval: Duration.default("1h"),
    })
    .prefault({}),
});
export type TenancyConfig = z.infer<typeof TenancyConfig>;

/** In production (`deployment.mode`) domains must be able to point their MX at the intake: `smtp.hostname` is required. */
const TenancyProductionConfig = requiredInProduction(TenancyConfig, [{ path: ["smtp", "hostname"], kind: "hostname" }]);

export function loadTenancyConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): TenancyConfig {
  return loadConfig(TenancyProductionConfig, env, overrides);
}

/** The service's configuration from the process environment (and BB_CONFIG_FILE), for main.ts. */
export const loadTenancyConfigFromEnv = (): TenancyConfig => loadTenancyConfig(process.env);

/** The SQL migrations, applied at start-up and by `--migrate-only` (the same from src/ and dist/). */
export const MIGRATIONS_DIR = path.join(__dirname, "..", "prisma", "migrations");
