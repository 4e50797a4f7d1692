import { z } from "zod";
import { Duration, parseDurationMs } from "@burnbox/contracts";
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
import { cidrProblem } from "./smtp/proxy-protocol";

/** An IP address or a CIDR range, v4 or v6. */
const Cidr = z
  .string()
  .trim()
  .superRefine((entry, ctx) => {
    const problem = cidrProblem(entry);
    if (problem) ctx.addIssue({ code: "custom", message: `${JSON.stringify(entry)} ${problem}` });
  });

export const InboxConfig = z.object({
  ...baseConfigShape("inbox", 8103),
  ...databaseShape("burnbox_inbox"),
  smtp: z
    .object({
      port: z.number().int().min(0).max(65535).default(2525),
      host: z.string().default("0.0.0.0"),
      /** The name the intake greets with (and the MX target domains must point at). */
      hostname: z.string().default("mx.burnbox.local"),
      max_message_bytes: z
        .number()
        .int()
        .positive()
        .default(25 * 1024 * 1024),
      max_recipients: z.number().int().positive().default(100),
      /** PEM files; when both are set the intake offers STARTTLS. */
      tls_cert: z.string().optional(),
      tls_key: z.string().optional(),
      /** Connections one client IP may hold open at once (421 beyond). */
      max_connections_per_ip: z.number().int().positive().default(50),
      /** Messages one client IP may send per minute (451 beyond, so it retries later). */
      max_messages_per_ip_per_minute: z.number().int().positive().default(300),
      /** Messages per connection (421 and close beyond). */
      max_messages_per_connection: z.number().int().positive().default(100),
      /** A client silent this long is disconnected. */
      idle_timeout: Duration.default("60s"),
      /**
       * The longest a client may take to finish a command line once its first byte came (421 and
       * close beyond), however steadily it drips bytes: each byte resets the idle timer, not this one.
       */
      command_timeout: Duration.default("60s"),
      /**
       * The longest a client may take to send one message after DATA (421 and close beyond), however
       * steadily it trickles bytes: each byte resets the idle timer, not this one.
       */
      data_timeout: Duration.default("10m"),
      /** The longest one connection may last, whatever it does (421 and close beyond). */
      session_timeout: Duration.default("30m"),
      /**
       * How long the database gets to make a received message durable, from the moment the intake
       * hands it over. The intake's pool runs with this as PostgreSQL's statement_timeout (and
       * idle_in_transaction_session_timeout), and a message still queued when it passes is not
       * written: a write that cannot finish in time is rolled back by the server and the sender
       * gets 451, so nothing commits after the sender was told to retry. The reply comes at most
       * about twice this after the end of DATA: keep that well inside senders' wait for it (RFC
       * 5321: 10 minutes; some clients give up after 60 s).
       */
      store_timeout: Duration.default("20s").refine((d) => {
        const ms = parseDurationMs(d);
        return ms >= 1000 && ms <= 240_000;
      }, "must be between 1s and 4m (the reply comes at most about twice this after the end of DATA)"),
      /**
       * The PROXY protocol (v1 and v2) from the load balancer in front of the intake, so that SPF,
       * DMARC, the per-IP limits and the transcripts see the sender's address, not the balancer's.
       */
      proxy_protocol: z
        .object({
          /**
           * The peers (IPs or CIDR ranges: the load balancer's nodes) whose connections must open
           * with a PROXY header, and whose header is believed. Empty (the default): off, no header
           * is read from anyone.
           */
          trusted_cidrs: z.array(Cidr).default([]),
          /**
           * A connection from any other peer while the PROXY protocol is on: `refuse` (the default)
           * answers 421 and closes, so a balancer missing from the list shows at once instead of
           * every sender sharing its address; `plain` serves it as the peer's own session (clients
           * inside the cluster that bypass the balancer). Its PROXY header is never believed.
           */
          untrusted: z.enum(["refuse", "plain"]).default("refuse"),
        })
        .prefault({}),
    })
    .prefault({}),
  /** Extensions section 11: the IMAP4rev1 listener of the mailbox entrypoint (`src/mailbox-main.ts`). */
  imap: z
    .object({
      port: z.number().int().min(0).max(65535).default(1143),
      host: z.string().default("0.0.0.0"),
      /** A client silent this long is logged out (RFC 3501 5.4: at least 30 minutes; IDLE included). */
      idle_timeout: Duration.default("30m"),
    })
    .prefault({}),
  /** Extensions section 11: the POP3 listener of the mailbox entrypoint. */
  pop3: z
    .object({
      port: z.number().int().min(0).max(65535).default(1110),
      host: z.string().default("0.0.0.0"),
      /** A client silent this long is disconnected (RFC 1939: at least 10 minutes). */
      idle_timeout: Duration.default("10m"),
    })
    .prefault({}),
  /** What IMAP and POP3 share. */
  mailbox: z
    .object({
      /** PEM files; when both are set IMAP offers STARTTLS and POP3 STLS. Unset: `smtp.tls_cert`/`smtp.tls_key` when those are set. */
      tls_cert: z.string().optional(),
      tls_key: z.string().optional(),
      /** How long a refused login waits before its answer. */
      login_failure_delay: Duration.default("1s"),
      /** Failed logins one client IP may make per minute (the gateway's `rate_limit.login_per_minute` default); beyond, refused until the minute ends. */
      login_failures_per_minute: z.number().int().positive().default(10),
      /** Connections one client IP may hold open at once across both protocols (refused beyond). */
      max_connections_per_ip: z.number().int().positive().default(50),
    })
    .prefault({}),
  storage: z
    .object({
      /** `local` (one host, the default) or `s3`: any S3-compatible store shared by every replica. */
      provider: z.enum(["local", "s3"]).default("local"),
      local_path: z.string().default(".data/storage"),
      s3: z
        .object({
          endpoint: z.string().url().optional(),
          bucket: z.string().default("burnbox-mail"),
          region: z.string().default("us-east-1"),
          access_key_id: z.string().optional(),
          secret_access_key: z.string().optional(),
          force_path_style: z.boolean().default(false),
        })
        .prefault({}),
    })
    .prefault({}),
  inboxes: z
    .object({
      /** Used only when tenancy's settings give no TTL (they normally do: 10m default, 24h max). */
      default_ttl: Duration.default("10m"),
      max_ttl: Duration.default("24h"),
    })
    .prefault({}),
  /** The public demo (`/try`): off by default. */
  demo: z
    .object({
      enabled: z.boolean().default(false),
      /** The domain demo inboxes are created on (its MX must point at the intake). */
      domain: z.string().min(1).default("demo.burnbox.local"),
      ttl: Duration.default("10m"),
      /** Demo inboxes one client IP may create per clock hour (429 beyond). */
      per_ip_per_hour: z.number().int().positive().default(10),
    })
    .prefault({}),
  /** The resolvers the intake's authentication checks and the link check ask (`host:port`; empty = the system's). */
  ...dnsShape(),
  /** Extensions section 3: SPF, DKIM, DMARC and ARC worked out at intake. */
  authentication: z
    .object({
      /** Off: mail is stored with `authentication: null` (and summarized `none`); no lookup is made. */
      enabled: z.boolean().default(true),
      /**
       * The longest the checks may hold a message past the end of its DATA: lookups stop a little
       * before (each then fails as `temperror`) and whatever is unfinished at the end is `temperror`.
       */
      dns_budget: Duration.default("2s"),
      /** The most DNS lookups one message may cause (beyond: `temperror`); SPF's own limit of 10 applies inside. */
      max_lookups: z.number().int().positive().default(40),
      /** The most DNS answers kept (each for its TTL); the oldest go first. */
      cache_entries: z.number().int().positive().default(10_000),
    })
    .prefault({}),
  /** Extensions section 9: every received email scored by rspamd, at intake, within a budget. */
  spam: z
    .object({
      /** rspamd's normal worker (e.g. http://127.0.0.1:11333); unset: scoring off, emails stored `disabled`. */
      rspamd_url: z.string().url().optional(),
      /** The most one message waits for its score past DATA (in parallel with the other checks): past it, `unavailable`. */
      timeout: Duration.default("2s"),
    })
    .prefault({}),
  /** Previews (extensions section 12): the renderer deployable is asked over NATS. */
  renderer: z
    .object({
      /** How long a preview waits for a renderer's picture before it answers 503 (at most the route's PREVIEW_MAX_WAIT_MS). */
      timeout: Duration.default("15s"),
    })
    .prefault({}),
  /** The link check (extensions section 7) goes out under the webhook rules, with the same operator allow-list. */
  webhooks: z
    .object({
      /** Hosts or CIDR ranges exempt from the SSRF rules: local test targets only. Empty by default. */
      unsafe_allowed_targets: z.array(z.string().trim().toLowerCase().min(1)).default([]),
    })
    .prefault({}),
  /** 64 hex, the same key as tenancy's: opens the saved platform storage's secret key (PUT /admin/config/storage). */
  ...encryptionShape(),
  /**
   * Extensions section 10, mail out: the relay is the saved platform mailer (PUT /admin/config/mailer),
   * else `mail.*` as identity reads it; a saved mailer is held to `mailer.allowed_ports` and the
   * outbound rules (`infra.unsafe_allowed_targets` exempts local test relays).
   */
  ...mailShape(),
  ...mailerPortsShape(),
  infra: z.object({ unsafe_allowed_targets: z.array(z.string().trim().toLowerCase().min(1)).default([]) }).prefault({}),
  outbound: z
    .object({
      /** Messages one team may queue per hour (sliding hour; 429 beyond). */
      max_per_hour: z.number().int().positive().default(100),
      /**
       * BurnBox's own SMTP intake (`host:port`), where mail to BurnBox's own inboxes goes; empty:
       * 127.0.0.1 and `smtp.port`.
       */
      intake: z.string().default(""),
      /** How often the outbound worker looks for queued mail (it is also woken by each new message). */
      poll_interval: Duration.default("2s"),
      /**
       * How long a worker holds a message it claimed before another may take it over. A message
       * whose SMTP transaction had begun is not taken over but ended as `failed` (never sent twice).
       */
      lease: Duration.default("2m"),
      /**
       * Delivery attempts before a 4xx or a connection failure ends the message as `failed`: spec 6.3's
       * rules (3 attempts, 5 s then 25 s apart; each at most `attempt_timeout`).
       */
      max_attempts: z.number().int().min(1).max(20).default(3),
      attempt_timeout: Duration.default("10s"),
    })
    .prefault({}),
  workers: z
    .object({
      cleanup_interval: Duration.default("1m"),
      /**
       * The share of the time the TTL cleanup works while it has a backlog: after each step it
       * rests so that its steps take at most this share (0.25: rests three times as long as the
       * step took). Lower keeps more of the database for the intake and the reads while a
       * hundred thousand expired inboxes drain, and drains them more slowly.
       */
      cleanup_share: z.number().gt(0).max(1).default(0.25),
    })
    .prefault({}),
  /**
   * For benchmarks only (`bench/src/extraction.bench.ts`: the intake's CPU per message with and
   * without extraction, in one run): `true` stores every email with empty `extracted` lists, which
   * breaks extensions section 2. Logged loudly when set. Never set it in a deployment.
   */
  bench: z.object({ unsafe_skip_extraction: z.boolean().default(false) }).prefault({}),
});
export type InboxConfig = z.infer<typeof InboxConfig>;

/** In production (`deployment.mode`) the intake greets with the MX host domains point at: `smtp.hostname` is required. */
const InboxProductionConfig = requiredInProduction(InboxConfig, [{ path: ["smtp", "hostname"], kind: "hostname" }]);

export function loadInboxConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): InboxConfig {
  return loadConfig(InboxProductionConfig, env, overrides);
}
