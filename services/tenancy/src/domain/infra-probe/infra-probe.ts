import type { Clock } from "@burnbox/service-kit/runtime";
import { RefusedTarget, SMTP_SUBMISSION_PORTS, outboundPolicy, pinTarget, type OutboundPolicy } from "@burnbox/service-kit/security";
import { headBucket } from "../../adapters/s3-probe";
import { ProbeFailure, verifySmtp } from "../../adapters/smtp-probe";

/** What a probe answers (contract notes, Setup and Admin): never the server's own words. */
export interface ProbeResult {
  success: boolean;
  message: string;
  response_time_ms: number;
}

/** The only ports a probe connects to (contract notes): SMTP submission/relay by default (`mailer.allowed_ports`), and object stores. */
export const SMTP_PORTS: readonly number[] = SMTP_SUBMISSION_PORTS;
export const STORAGE_PORTS: readonly number[] = [443, 80, 9000];

export interface SmtpProbeConfig {
  host: string;
  port: number;
  username?: string | null | undefined;
  password?: string | null | undefined;
  tls: boolean;
}

export interface StorageProbeConfig {
  provider: "local" | "s3";
  endpoint?: string | null | undefined;
  bucket?: string | null | undefined;
  region?: string | null | undefined;
  access_key?: string | null | undefined;
  secret_key?: string | null | undefined;
  use_ssl?: boolean | null | undefined;
}

/** How probes reach the network: the kit's outbound policy (`dns.servers`, the operator's exemptions), a time limit. */
export interface ProbeEnv {
  policy: OutboundPolicy;
  /** The ports an SMTP probe or a saved mailer may use (`mailer.allowed_ports`); `SMTP_PORTS` when not given. */
  smtpPorts?: readonly number[];
  timeoutMs: number;
  now?: Clock;
}

/** A `ProbeEnv` from tenancy's configuration values. */
export function probeEnv(opts: {
  dns: { servers: readonly string[]; timeout_ms: number };
  allowedTargets: readonly string[];
  timeoutMs: number;
  smtpPorts?: readonly number[];
}): ProbeEnv {
  return {
    policy: outboundPolicy({ dns: opts.dns, allowedTargets: opts.allowedTargets }),
    timeoutMs: opts.timeoutMs,
    ...(opts.smtpPorts ? { smtpPorts: opts.smtpPorts } : {}),
  };
}

/** The message a caller sees for a refusal: the port list, else a generic word on the host. */
export function refusalMessage(err: RefusedTarget): string {
  if (err.message.startsWith("port not allowed")) return err.message;
  return err.message.startsWith("host could not be resolved") ? "host could not be resolved" : "host is not allowed";
}

async function timed(env: ProbeEnv, run: () => Promise<string>): Promise<ProbeResult> {
  const now = env.now ?? Date.now;
  const start = now();
  const elapsed = () => Math.max(0, Math.round(now() - start));
  try {
    const message = await run();
    return { success: true, message, response_time_ms: elapsed() };
  } catch (err) {
    const message = err instanceof RefusedTarget ? refusalMessage(err) : err instanceof ProbeFailure ? err.message : "connection failed";
    return { success: false, message, response_time_ms: elapsed() };
  }
}

/**
 * Checks an outbound mailer: the host is resolved once and must pass the SSRF rules of spec 6.4
 * (unless the allow-list exempts it), the port must be one of `env.smtpPorts`, and nodemailer's
 * `verify()` (greeting, EHLO, STARTTLS/TLS, AUTH, QUIT; no mail sent) goes to the checked address, within
 * `env.timeoutMs`. A failure is `success: false` with a generic message, never an exception.
 */
export function probeSmtp(cfg: SmtpProbeConfig, env: ProbeEnv): Promise<ProbeResult> {
  return timed(env, async () => {
    const target = await pinTarget(cfg.host, env.policy, { port: cfg.port, ports: env.smtpPorts ?? SMTP_PORTS });
    return verifySmtp({
      target,
      port: cfg.port,
      tls: cfg.tls,
      username: cfg.username ?? undefined,
      password: cfg.password ?? undefined,
      timeoutMs: env.timeoutMs,
    });
  });
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The endpoint as a URL: `host[:port]` takes its scheme from `use_ssl` (default https). */
function endpointUrl(cfg: StorageProbeConfig): URL {
  const raw = (cfg.endpoint ?? "").trim() || "s3.amazonaws.com";
  const withScheme = /^[a-z]+:\/\//i.test(raw) ? raw : `${cfg.use_ssl === false ? "http" : "https"}://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new RefusedTarget("endpoint is not a valid host or URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RefusedTarget("endpoint must use http or https");
  if (url.username || url.password) throw new RefusedTarget("endpoint must not carry credentials");
  return url;
}

/**
 * Checks object storage. `local` needs no connection. `s3`: the AWS SDK's `HeadBucket` (path style,
 * signed when keys are given) on the endpoint, resolved once and pinned, under the rules of spec
 * 6.4 and only on `STORAGE_PORTS`, no redirects followed, within `env.timeoutMs`.
 */
export function probeStorage(cfg: StorageProbeConfig, env: ProbeEnv): Promise<ProbeResult> {
  return timed(env, async () => {
    if (cfg.provider === "local") return "local storage needs no connection";
    const bucket = (cfg.bucket ?? "").trim();
    if (!BUCKET.test(bucket)) throw new RefusedTarget("bucket is required (3-63 lower-case letters, digits, dots, hyphens)");
    const url = endpointUrl(cfg);
    const https = url.protocol === "https:";
    const port = url.port ? Number(url.port) : https ? 443 : 80;
    const target = await pinTarget(url.hostname, env.policy, { port, ports: STORAGE_PORTS });
    const status = await headBucket({
      target,
      endpoint: url,
      bucket,
      region: (cfg.region ?? "").trim() || "us-east-1",
      accessKey: cfg.access_key ?? undefined,
      secretKey: cfg.secret_key ?? undefined,
      timeoutMs: env.timeoutMs,
    });
    if (status >= 200 && status < 300) return "storage connection successful";
    if (status === 401 || status === 403) throw new ProbeFailure("access denied: check the access key and secret key");
    if (status === 404) throw new ProbeFailure("bucket not found");
    if (status === 0) throw new ProbeFailure("connection failed");
    throw new ProbeFailure("storage check failed");
  });
}
