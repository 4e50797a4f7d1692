import { HealthPingReply, subjects, type AdminHealth, type HealthCheck } from "@burnbox/contracts";
import { timedChecks, type HealthCheck as Check, type RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { probeSmtp } from "../infra-probe";
import { adminProbeEnv } from "../platform-config/probe-env";
import { requirePlatformAdmin } from "../platform-config/platform-admin";

/** Every process kind of the platform: each answers the health ping on its own subject. */
export const PLATFORM_SERVICES = [
  "api-gateway",
  "identity",
  "tenancy",
  "inbox",
  "inbox-smtp",
  "webhook-dispatcher",
  "realtime-gateway",
] as const;
/** The dependencies admin health names, besides the services. */
const DEPENDENCIES = ["postgres", "redis", "nats", "storage"] as const;

const PING_TIMEOUT_MS = 2000;

type Ping = { ok: true; reply: HealthPingReply; latency: number } | { ok: false; latency: number };

async function ping(deps: TenancyDeps, service: string): Promise<Ping> {
  const start = performance.now();
  const latency = () => Math.round(performance.now() - start);
  try {
    const msg = await deps.nc.request(subjects(deps.config.nats.namespace).health(service), "", { timeout: PING_TIMEOUT_MS });
    const parsed = HealthPingReply.safeParse(msg.json());
    return parsed.success ? { ok: true, reply: parsed.data, latency: latency() } : { ok: false, latency: latency() };
  } catch {
    return { ok: false, latency: latency() };
  }
}

export interface HealthAnswer {
  status: 200 | 503;
  body: AdminHealth;
}

/**
 * Admin health. Each service is asked over NATS (the ping every process answers with the checks
 * its /readyz runs): no answer within 2 s, or a failing check, is an error. Postgres and NATS are
 * tenancy's own checks; Redis and storage are what the services that use them report (identity
 * and the gateways Redis, the inbox and SMTP intake storage), an error when one reports it down or
 * none answers for it; the mailer is the saved mailer's SMTP server answering (no login, no mail),
 * under the same address rules as the SMTP test, and nothing to check while none is saved. No
 * address, URL or credential is in the answer. 503 when anything is in error.
 */
export async function getHealth(deps: TenancyDeps, ctx: RequestCtx, own: Record<string, Check>): Promise<HealthAnswer> {
  requirePlatformAdmin(ctx);
  const [ownChecks, pings, mailer] = await Promise.all([
    timedChecks(own, PING_TIMEOUT_MS),
    Promise.all(PLATFORM_SERVICES.map(async (s) => [s, await ping(deps, s)] as const)),
    checkMailer(deps),
  ]);
  const services: Record<string, HealthCheck> = {};
  for (const [name, p] of pings) {
    if (!p.ok) services[name] = { status: "error", latency_ms: p.latency, error: "no answer" };
    else {
      const down = Object.entries(p.reply.checks).flatMap(([dep, c]) => (c.status === "ok" ? [] : [dep]));
      services[name] = down.length
        ? { status: "error", latency_ms: p.latency, error: `dependency down: ${down.join(", ")}` }
        : { status: "ok", latency_ms: p.latency };
    }
  }
  for (const dep of DEPENDENCIES) {
    const reports = pings.flatMap(([, p]) => (p.ok && p.reply.checks[dep] ? [p.reply.checks[dep]] : []));
    const mine = ownChecks[dep];
    if (mine) reports.unshift(mine);
    if (reports.length === 0) services[dep] = { status: "error", latency_ms: 0, error: "no service reported it" };
    else {
      const bad = reports.find((r) => r.status !== "ok");
      services[dep] = bad
        ? { status: "error", latency_ms: bad.latency_ms, error: "unreachable" }
        : { status: "ok", latency_ms: Math.max(...reports.map((r) => r.latency_ms)) };
    }
  }
  services.mailer = mailer;
  const degraded = Object.values(services).some((c) => c.status === "error");
  return {
    status: degraded ? 503 : 200,
    body: { status: degraded ? "degraded" : "ok", uptime_s: Math.floor(process.uptime()), services },
  };
}

async function checkMailer(deps: TenancyDeps): Promise<HealthCheck> {
  const saved = await deps.data.repos.platformConfig.mailer().catch(() => null);
  if (!saved?.host) return { status: "ok", latency_ms: 0 };
  const env = adminProbeEnv(deps.config);
  // bounded like the pings, so one slow mail server does not hold the whole health answer
  const r = await probeSmtp(
    { host: saved.host, port: saved.port, tls: saved.tls },
    { ...env, timeoutMs: Math.min(env.timeoutMs, PING_TIMEOUT_MS) },
  );
  return r.success
    ? { status: "ok", latency_ms: r.response_time_ms }
    : { status: "error", latency_ms: r.response_time_ms, error: r.message };
}
