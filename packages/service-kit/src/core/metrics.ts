import type { Pool } from "pg";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  /** Times each request into the duration histogram (labelled by route pattern); plain node objects do. */
  httpMiddleware: (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void;
  handler: RequestHandler;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  for (const metric of Object.values(pipeline)) registry.registerMetric(metric);
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const httpMiddleware = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    const end = duration.startTimer();
    res.on("finish", () => {
      // The matched route template, never the raw URL, keeps label cardinality bounded.
      const r = req as IncomingMessage & { route?: { path?: string }; baseUrl?: string };
      const route = r.route?.path ?? "unmatched";
      end({ method: req.method ?? "", route: `${r.baseUrl ?? ""}${route}`, status: String(res.statusCode) });
    });
    next();
  };
  const handler = async (_req: Request, res: Response) => {
    res.setHeader("Content-Type", registry.contentType);
    res.send(await registry.metrics());
  };
  return { registry, httpMiddleware, handler };
}

export function counter(metrics: Metrics, name: string, help: string, labelNames: string[] = []): Counter {
  return new Counter({ name, help, labelNames, registers: [metrics.registry] });
}

/**
 * The pipeline's own metrics, one set per process, registered into every registry
 * `createMetrics` makes (one per service process). They live at module level because the code
 * that moves them (an SMTP callback, the hub of sockets, the rate limiter, the outbox relay) is
 * deep in places that hold no registry; prom-client's counters are cheap enough for hot paths.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const outboxPools = new Set<Pool>();

export const pipeline = {
  smtpReplies: new Counter({
    name: "burnbox_smtp_replies_total",
    help: "SMTP intake replies by command (rcpt, data) and reply code: 250 accepted, 4xx/5xx refused",
    labelNames: ["command", "code"],
    registers: [],
  }),
  mailboxSessions: new Gauge({
    name: "burnbox_mailbox_sessions_open",
    help: "IMAP and POP3 sessions open on this replica, by protocol (imap, pop3)",
    labelNames: ["protocol"],
    registers: [],
  }),
  mailboxCommands: new Counter({
    name: "burnbox_mailbox_commands_total",
    help: "IMAP and POP3 commands by protocol, command (other: one the server does not know) and outcome (ok, no, bad: IMAP's answers; POP3's -ERR is no)",
    labelNames: ["protocol", "command", "outcome"],
    registers: [],
  }),
  mailboxLogins: new Counter({
    name: "burnbox_mailbox_logins_total",
    help: "IMAP and POP3 logins by protocol and outcome (ok, refused: a wrong key, a key that may not read the inbox, or a limited client address)",
    labelNames: ["protocol", "outcome"],
    registers: [],
  }),
  mailAuthVerdicts: new Counter({
    name: "burnbox_mail_auth_verdicts_total",
    help: "Authentication verdicts of received mail by check (spf, dkim: one per signature, none when unsigned, dmarc, arc) and result (RFC 8601 word)",
    labelNames: ["check", "result"],
    registers: [],
  }),
  mailAuthDuration: new Histogram({
    name: "burnbox_mail_auth_check_seconds",
    help: "Time from the end of DATA to a message's authentication verdicts, by outcome (checked, late: the DNS budget ran out, failed)",
    labelNames: ["outcome"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 5],
    registers: [],
  }),
  outboxPublished: new Counter({
    name: "burnbox_outbox_published_total",
    help: "Outbox rows published to JetStream",
    registers: [],
  }),
  outboxPublishFailures: new Counter({
    name: "burnbox_outbox_publish_failures_total",
    help: "Outbox publishes that failed (retried on the next pass)",
    registers: [],
  }),
  outboxLag: new Histogram({
    name: "burnbox_outbox_publish_lag_seconds",
    help: "Time from an outbox row's commit to its publish",
    buckets: LATENCY_BUCKETS,
    registers: [],
  }),
  outboxBacklog: new Gauge({
    name: "burnbox_outbox_backlog",
    help: "Outbox rows not yet published (read at scrape time)",
    registers: [],
    async collect() {
      let total = 0;
      for (const pool of outboxPools) {
        const n = await pool
          .query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL")
          .then((r) => r.rows[0]?.n ?? 0)
          .catch(() => 0);
        total += n;
      }
      this.set(total);
    },
  }),
  consumerMessages: new Counter({
    name: "burnbox_consumer_messages_total",
    help: "Messages handled per durable consumer, by outcome: processed (acked), skipped (not wanted: nothing to do), retried (nak), dead_lettered",
    labelNames: ["durable", "outcome"],
    registers: [],
  }),
  consumerRedeliveries: new Counter({
    name: "burnbox_consumer_redeliveries_total",
    help: "Messages received again (delivery count above 1) per durable consumer",
    labelNames: ["durable"],
    registers: [],
  }),
  webhookAttempts: new Counter({
    name: "burnbox_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: success (2xx), http_error (other status), error (no answer: refused, timeout...)",
    labelNames: ["outcome"],
    registers: [],
  }),
  webhookLatency: new Histogram({
    name: "burnbox_webhook_attempt_duration_seconds",
    help: "Webhook delivery attempt duration by outcome",
    labelNames: ["outcome"],
    buckets: LATENCY_BUCKETS,
    registers: [],
  }),
  websocketBroadcast: new Histogram({
    name: "burnbox_websocket_broadcast_seconds",
    help: "Time to write one frame to every socket of one inbox (or user, or the admin stream) on this replica, by stream",
    labelNames: ["stream"],
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [],
  }),
  openWebSockets: new Gauge({
    name: "burnbox_websockets_open",
    help: "WebSockets open on this replica",
    registers: [],
  }),
  rateLimitRefusals: new Counter({
    name: "burnbox_rate_limit_refusals_total",
    help: "Requests refused with 429, by bucket (ip, user, login, forgot)",
    labelNames: ["bucket"],
    registers: [],
  }),
  workerRuns: new Counter({
    name: "burnbox_worker_runs_total",
    help: "Periodic task runs by task and outcome (ok, error)",
    labelNames: ["task", "outcome"],
    registers: [],
  }),
  workerDuration: new Histogram({
    name: "burnbox_worker_run_duration_seconds",
    help: "Periodic task run duration by task",
    labelNames: ["task"],
    buckets: LATENCY_BUCKETS,
    registers: [],
  }),
};

/** The outbox backlog gauge counts the pending rows of these pools at scrape time. */
export function watchOutboxBacklog(pool: Pool): () => void {
  outboxPools.add(pool);
  return () => outboxPools.delete(pool);
}
