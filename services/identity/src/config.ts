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
  secretSchema,
} from "@burnbox/service-kit/runtime";

export const IdentityConfig = z.object({
  ...baseConfigShape("identity", 8101),
  ...databaseShape("burnbox_identity"),
  auth: z.object({
    jwt_secret: secretSchema,
    access_token_ttl: Duration.default("15m"),
    refresh_token_ttl: Duration.default("720h"),
    /** Failed password logins in a row before the account locks, and for how long. */
    lockout_threshold: z.number().int().positive().default(5),
    lockout_duration: Duration.default("15m"),
    /** argon2id cost: OWASP's 19 MiB, 2 passes, 1 lane by default (see docs/performance.md). */
    argon2: z
      .object({
        memory_kib: z.number().int().min(1024).default(19_456),
        time_cost: z.number().int().min(1).default(2),
        parallelism: z.number().int().min(1).default(1),
      })
      .prefault({}),
  }),
  password: z
    .object({
      min_length: z.number().int().min(6).default(8),
      require_uppercase: z.boolean().default(true),
      require_lowercase: z.boolean().default(true),
      require_digit: z.boolean().default(true),
      require_symbol: z.boolean().default(true),
    })
    .prefault({}),
  /** The public address of the installation: links in mail, and Secure cookies when it is https. */
  base_url: z.string().url().default("http://localhost:8080"),
  cors: z.object({ allowed_origins: z.array(z.string()).default([]) }).prefault({}),
  cookies: z.object({ same_site: z.enum(["lax", "strict", "none"]).default("lax") }).prefault({}),
  /** Outbound SMTP for account mail while no platform mailer is saved (`mail.*`, shared with tenancy's GET /admin/config/mailer). */
  ...mailShape(),
  /** `mailer.allowed_ports` (BB_MAILER_ALLOWED_PORTS): the ports a saved platform mailer may use. */
  ...mailerPortsShape(),
  /** The resolvers of outbound lookups (SSO issuers, the saved mailer): `dns.servers`, empty = the system's. */
  ...dnsShape(),
  infra: z
    .object({
      /**
       * Hosts or CIDR ranges the saved platform mailer may reach despite the outbound rules (as
       * tenancy's setting of the same name): local test targets only; logged as unsafe at start.
       */
      unsafe_allowed_targets: z.array(z.string().trim().toLowerCase().min(1)).default([]),
    })
    .prefault({}),
  /** Where the SSO callback sends the browser (`<frontend_url>/login?sso_code=...`); empty = base_url. */
  frontend_url: z.string().url().or(z.literal("")).default(""),
  sso: z
    .object({
      enforce: z.boolean().default(false),
      /**
       * Issuers allowed over plain http or on private addresses: host names, `host:port` or
       * origins. For local test providers only; logged loudly at start when set.
       */
      unsafe_allowed_issuers: z.array(z.string().trim().toLowerCase().min(1)).default([]),
      /**
       * GitHub's web and API origins for the github preset (GitHub Enterprise Server, or a local
       * test server listed in `unsafe_allowed_issuers`); https unless listed there.
       */
      github_url: z.string().url().default("https://github.com"),
      github_api_url: z.string().url().default("https://api.github.com"),
    })
    .prefault({}),
  /** 64 hex (AES-256-GCM) for stored secrets (SSO client secrets); empty = storing a secret is refused. */
  ...encryptionShape(),
  admin: z
    .object({
      /** Accounts with these emails become system admins once they verify the address (the verification link); registering alone gives nothing. */
      emails: z.array(z.string().trim().toLowerCase()).default([]),
    })
    .prefault({}),
  defaults: z
    .object({
      max_sessions_per_user: z.number().int().positive().default(5),
      timezone: z.string().default("UTC"),
      date_format: z.string().default("YYYY-MM-DD"),
      time_format: z.enum(["12h", "24h"]).default("24h"),
    })
    .prefault({}),
  workers: z
    .object({
      /** How often API-key usage counted in Redis by the gateway is written to Postgres. */
      apikey_usage_flush_interval: Duration.default("5s"),
      /** How often expired API keys are hard-deleted. */
      cleanup_interval: Duration.default("1m"),
      /** How often identity checks that the gateway's revocation list in Redis is complete (and re-seeds it if not). */
      revocation_seed_interval: Duration.default("5s"),
    })
    .prefault({}),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;

/** In production (`deployment.mode`) mailed links must point at the real address: `base_url` is required. */
const IdentityProductionConfig = requiredInProduction(IdentityConfig, [{ path: ["base_url"], kind: "url" }]);

export function loadIdentityConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): IdentityConfig {
  return loadConfig(IdentityProductionConfig, env, overrides);
}
