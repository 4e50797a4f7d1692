import { connect } from "@nats-io/transport-node";
import type { NatsConnection } from "@nats-io/nats-core";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { jetstream, jetstreamManager, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient } from "@nats-io/jetstream";
import { rpcSchemas, subjects, type RpcName, type DomainEvent } from "@burnbox/contracts";
import type { z } from "zod";
import { currentContext, runWithContext } from "../core/context";
import type { Logger } from "../core/logger";
import { SpanKind, extractNatsHeaders, injectNatsHeaders, withSpan } from "../telemetry";

export type { NatsConnection, JetStreamClient };

/**
 * `nats.url` as the client's server list: one URL, or the members of a cluster comma-separated.
 * With every member listed, a process that starts (or restarts) while one member is down connects
 * to another; a connected client also learns the members from the server and reconnects to any of
 * them, so a single seed only matters at start. A member's `user:password@` is taken out of the
 * list (the client would read it as part of the host) and sent as the credentials instead.
 */
export function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => s.replace(/^((?:[a-z]+:\/\/)?)[^@/]*@/i, "$1"));
}

/** The credentials a client presents: `nats.user`/`nats.password` (BB_NATS_USER, BB_NATS_PASSWORD), else the first URL's `user:password@`. */
export interface NatsAuth {
  user?: string | undefined;
  password?: string | undefined;
}

export function natsCredentials(url: string, auth: NatsAuth = {}): { user: string; pass: string } | null {
  if (auth.user) return { user: auth.user, pass: auth.password ?? "" };
  for (const member of url.split(",")) {
    const m = /^(?:[a-z]+:\/\/)?([^@/]*)@/i.exec(member.trim());
    if (!m?.[1]) continue;
    const [user = "", ...rest] = m[1].split(":");
    return { user: decodeURIComponent(user), pass: decodeURIComponent(rest.join(":")) };
  }
  return null;
}

export async function connectNats(url: string, name: string, logger?: Logger, auth: NatsAuth = {}): Promise<NatsConnection> {
  const credentials = natsCredentials(url, auth);
  // noAsyncTraces: a request or JetStream publish does not build an Error up front for the stack of
  // a failure that rarely comes (2% of the SMTP intake's CPU did); failures keep their message.
  // typescript-eslint cannot resolve transport-node's re-exported types (tsc can); the annotation keeps it typed
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
  const nc: NatsConnection = await connect({
    servers: natsServers(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
    ...(credentials ?? {}),
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnect") logger?.warn({ nats: s.type }, "nats connection status");
    }
  })();
  return nc;
}

const DAY_NS = 24 * 60 * 60 * 1_000_000_000;

/**
 * Creates the events stream and the dead-letter stream of a namespace with `replicas` copies each
 * (1 on a single server, 3 on a three-node JetStream cluster), or brings an existing stream to
 * that count; everything else of an existing stream is left as it is.
 */
export async function ensureStreams(nc: NatsConnection, namespace: string, replicas = 1): Promise<void> {
  const s = subjects(namespace);
  const jsm = await jetstreamManager(nc);
  const want = [
    { name: s.stream, subjects: [s.eventsWildcard], max_age: 7 * DAY_NS },
    { name: s.dlqStream, subjects: [s.dlqWildcard], max_age: 30 * DAY_NS },
  ];
  for (const cfg of want) {
    const existing = await jsm.streams.info(cfg.name).catch(() => null);
    if (existing) {
      if (existing.config.num_replicas !== replicas) await jsm.streams.update(cfg.name, { ...existing.config, num_replicas: replicas });
      continue;
    }
    try {
      await jsm.streams.add({
        ...cfg,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        duplicate_window: 2 * 60 * 1_000_000_000,
        num_replicas: replicas,
      });
    } catch (err) {
      // A replica starting at the same moment may have created it first.
      await jsm.streams.info(cfg.name).catch(() => {
        throw err;
      });
    }
  }
}

/** Publishes an event with its id as the JetStream message id, so a re-publish is deduplicated. */
export async function publishEvent(js: JetStreamClient, namespace: string, event: DomainEvent): Promise<void> {
  const h = natsHeaders();
  const trace = currentContext().trace_id;
  if (trace) h.set("trace-id", trace);
  injectNatsHeaders(h);
  await js.publish(subjects(namespace).event(event.type), JSON.stringify(event), { msgID: event.id, headers: h });
}

export { jetstream, jetstreamManager };

type Req<N extends RpcName> = z.input<(typeof rpcSchemas)[N]["request"]>;
type Rep<N extends RpcName> = z.output<(typeof rpcSchemas)[N]["reply"]>;

/**
 * Publishes a core-NATS broadcast and waits (at most `maxWaitMs`) until the server has it: the
 * broadcast is then ahead of the caller's answer on every subscriber's connection, so a client that
 * reads after the answer, on any replica, finds the caches dropped. A connection that is down waits
 * no longer than `maxWaitMs`; the caches on a broadcast subject drop everything on a reconnect.
 */
export async function broadcastNow(nc: NatsConnection, subject: string, maxWaitMs = 1000): Promise<void> {
  nc.publish(subject);
  await flushWithin(nc, maxWaitMs);
}

/**
 * Resolves once the server has processed everything this connection sent so far (true), or after
 * `maxWaitMs` or on a failed flush (false).
 */
export async function flushWithin(nc: NatsConnection, maxWaitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const flushed = await Promise.race([
    nc.flush().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), maxWaitMs);
    }),
  ]);
  clearTimeout(timer);
  return flushed;
}

export class RpcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RpcError";
  }
}

/** Synchronous internal query over NATS request/reply, both ends checked against the contracts. */
export async function rpcRequest<N extends RpcName>(
  nc: NatsConnection,
  namespace: string,
  name: N,
  payload: Req<N>,
  timeoutMs = 3000,
): Promise<Rep<N>> {
  const schemas = rpcSchemas[name];
  const body = schemas.request.parse(payload);
  const h = natsHeaders();
  const rid = currentContext().request_id;
  if (rid) h.set("request-id", rid);
  injectNatsHeaders(h);
  let msg;
  try {
    msg = await nc.request(subjects(namespace).rpc(name), JSON.stringify(body), { timeout: timeoutMs, headers: h });
  } catch (err) {
    throw new RpcError(`${name} unavailable: ${(err as Error).message}`);
  }
  const raw = msg.json<{ ok: boolean; reply?: unknown; error?: string }>();
  if (!raw.ok) throw new RpcError(`${name} failed: ${raw.error ?? "unknown"}`);
  return schemas.reply.parse(raw.reply) as Rep<N>;
}

/** Serves one request/reply subject in a queue group, so replicas share the load. */
export function serveRpc<N extends RpcName>(
  nc: NatsConnection,
  namespace: string,
  name: N,
  handler: (req: z.output<(typeof rpcSchemas)[N]["request"]>) => Promise<Rep<N>>,
  logger: Logger,
): { stop(): Promise<void> } {
  const schemas = rpcSchemas[name];
  const subject = subjects(namespace).rpc(name);
  const sub = nc.subscribe(subject, {
    queue: subject,
    callback: (err, msg) => {
      if (err) {
        logger.error({ err }, "rpc subscription error");
        return;
      }
      const requestId = msg.headers?.get("request-id") || undefined;
      // the caller's trace continues here (a no-op when tracing is off)
      const span = {
        kind: SpanKind.SERVER,
        parent: extractNatsHeaders(msg.headers),
        attributes: { "rpc.system": "nats", "rpc.method": name },
      };
      void withSpan(`${name} rpc`, span, () =>
        runWithContext(requestId ? { request_id: requestId } : {}, async () => {
          try {
            const parsed = schemas.request.safeParse(msg.json());
            if (!parsed.success) {
              msg.respond(JSON.stringify({ ok: false, error: "invalid request" }));
              return;
            }
            const reply = await handler(parsed.data as never);
            msg.respond(JSON.stringify({ ok: true, reply }));
          } catch (e) {
            logger.error({ err: e, rpc: name }, "rpc handler failed");
            msg.respond(JSON.stringify({ ok: false, error: "internal error" }));
          }
        }),
      );
    },
  });
  return { stop: () => sub.drain() };
}
