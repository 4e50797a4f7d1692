import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from "@nats-io/jetstream";
import type { MsgHdrs, NatsConnection } from "@nats-io/nats-core";
import type { z } from "zod";
import { DomainEvent, subjects, type EventOf, type EventType } from "@burnbox/contracts";
import { runWithContext } from "../core/context";
import { TransientError } from "../core/errors";
import type { Logger } from "../core/logger";
import { pipeline } from "../core/metrics";
import { SpanKind, SpanStatusCode, extractNatsHeaders, withSpan } from "../telemetry";

const MS = 1_000_000; // nanoseconds per millisecond

/**
 * How long an ack may wait for others to go with it (see `AckBatch`): far inside every consumer's
 * ack wait (30 s by default), long enough that at a steady few hundred messages a second each
 * consumer writes its acks a few times a second instead of once a message.
 */
export const ACK_LINGER_MS = 200;
/** At most this many acks wait together. */
const ACK_BATCH = 256;

/**
 * Acks of handled messages, sent together: each waits at most `ACK_LINGER_MS` (or until
 * `ACK_BATCH` wait), then all of them are published in one turn, which the NATS client writes to
 * its socket as one write. Sent one by one, each ack was a write system call of its own and a
 * wakeup of the server, most of a consumer's cost at a few hundred messages a second; with a
 * 10 ms linger, at the rates a small installation sees (tens of messages a second) each batch
 * still held one ack (docs/performance.md, issue 39). An ack only tells the server not to redeliver: the handler's work is
 * committed before it is queued, and a message whose ack a crash lost is redelivered and seen as
 * processed (every handler is idempotent on the event id), well inside the ack wait.
 */
class AckBatch {
  private waiting: JsMsg[] = [];
  private timer: NodeJS.Timeout | null = null;

  add(msg: JsMsg): void {
    this.waiting.push(msg);
    if (this.waiting.length >= ACK_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), ACK_LINGER_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const acks = this.waiting;
    this.waiting = [];
    for (const msg of acks) msg.ack();
  }
}

/** What a consumer's handler receives: the whole event, or (`schema`) the part of it the handler reads. */
export interface ConsumedEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  org_id: string | null;
}

export interface ConsumerOptions<T extends EventType = EventType, E extends ConsumedEvent<T> = EventOf<T>> {
  nc: NatsConnection;
  namespace: string;
  /** Durable name: one per logical consumer (shared by replicas), or per replica for fan-out. */
  durable: string;
  eventType: T;
  logger: Logger;
  /** Receives the event already checked against its schema (or `schema`) and narrowed to `eventType`. */
  handler: (event: E, msg: JsMsg) => Promise<void>;
  /**
   * The part of the event the handler reads, checked instead of the whole event's schema: a
   * projection of `eventType`'s envelope (its id, type and org_id, and the data fields the handler
   * uses), so that a hop does not check again, field by field, what it never reads (the received
   * email's summary, extracted codes and links, authentication results). A payload that fails it
   * is dead-lettered as one that fails the whole schema.
   */
  schema?: z.ZodType<E>;
  concurrency?: number;
  maxDeliver?: number;
  ackWaitMs?: number;
  /** Delay before redelivery after a failure, by delivery count (1-based). */
  retryDelayMs?: (deliveryCount: number) => number;
  deliverPolicy?: "all" | "new";
  /** Consumers of one replica only: removed by the server when idle this long. */
  inactiveThresholdMs?: number;
  /**
   * `none`: the server sends each message once and keeps no acks (no ack is written, none
   * redelivered), for a replica's live fan-out whose handler cannot fail and whose clients resume
   * by themselves; `explicit` (the default): acked once handled, redelivered otherwise.
   */
  ack?: "explicit" | "none";
  /**
   * Asked of the parsed JSON before its schema is checked: false skips the message as handled (a
   * fan-out with no socket for it need not check or build anything; a team with no webhook for it
   * need not be dispatched). Only what the handler would have ignored may be skipped; a throw or a
   * rejection counts as wanted (the schema then judges the payload).
   */
  wanted?: (raw: unknown) => boolean | Promise<boolean>;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

const isEventOf = <T extends EventType, E extends ConsumedEvent<T>>(event: ConsumedEvent, type: T): event is E => event.type === type;

/** `wanted`'s answer, where a throw or a rejection counts as wanted. */
async function isWanted(wanted: (raw: unknown) => boolean | Promise<boolean>, raw: unknown): Promise<boolean> {
  try {
    return await wanted(raw);
  } catch {
    return true;
  }
}

/**
 * A durable pull consumer: explicit ack, bounded concurrency, nak with delay on failure, term
 * (after dead-lettering) for payloads that fail their schema or exhaust their deliveries.
 */
export async function startConsumer<T extends EventType, E extends ConsumedEvent<T> = EventOf<T>>(
  opts: ConsumerOptions<T, E>,
): Promise<RunningConsumer> {
  const { nc, namespace, durable, logger } = opts;
  const s = subjects(namespace);
  const maxDeliver = opts.maxDeliver ?? 20;
  const retryDelay = opts.retryDelayMs ?? ((n: number) => Math.min(1000 * 2 ** (n - 1), 60_000));
  const jsm = await jetstreamManager(nc);
  const config = {
    durable_name: durable,
    ack_policy: opts.ack === "none" ? AckPolicy.None : AckPolicy.Explicit,
    filter_subject: s.event(opts.eventType),
    max_deliver: maxDeliver,
    ack_wait: (opts.ackWaitMs ?? 30_000) * MS,
    deliver_policy: opts.deliverPolicy === "new" ? DeliverPolicy.New : DeliverPolicy.All,
    ...(opts.inactiveThresholdMs ? { inactive_threshold: opts.inactiveThresholdMs * MS } : {}),
  };
  try {
    await jsm.consumers.info(s.stream, durable);
    await jsm.consumers.update(s.stream, durable, { max_deliver: config.max_deliver, ack_wait: config.ack_wait });
  } catch {
    await jsm.consumers.add(s.stream, config);
  }
  const js = jetstream(nc);
  const consumer = await js.consumers.get(s.stream, durable);
  const concurrency = opts.concurrency ?? 8;
  // a pull asks for up to this many at once (the client pulls again as they are used): fewer pull requests
  const messages = await consumer.consume({ max_messages: Math.max(64, concurrency * 2) });
  const acked = opts.ack !== "none";
  const inFlight = new Set<Promise<void>>();
  const acks = new AckBatch();

  const deadLetter = async (msg: JsMsg, reason: string) => {
    try {
      // typescript-eslint cannot resolve the jetstream package's header type (tsc can)
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
      const headers: MsgHdrs | undefined = msg.headers;
      await js.publish(s.dlq(durable), msg.data, headers ? { headers } : {});
    } catch (err) {
      logger.error({ err }, "dead-letter publish failed; leaving message for redelivery");
      msg.nak(retryDelay(msg.info.deliveryCount));
      return;
    }
    logger.error({ consumer: durable, reason, seq: msg.seq }, "message dead-lettered");
    pipeline.consumerMessages.inc({ durable, outcome: "dead_lettered" });
    msg.term(reason);
  };

  const handle = async (msg: JsMsg) => {
    if (msg.info.deliveryCount > 1) pipeline.consumerRedeliveries.inc({ durable });
    let raw: unknown;
    try {
      raw = msg.json();
    } catch {
      await deadLetter(msg, "payload is not JSON");
      return;
    }
    if (opts.wanted && !(await isWanted(opts.wanted, raw))) {
      if (acked) acks.add(msg);
      pipeline.consumerMessages.inc({ durable, outcome: "skipped" });
      return;
    }
    const parsed = (opts.schema ?? DomainEvent).safeParse(raw);
    if (!parsed.success) {
      await deadLetter(msg, "payload fails its schema");
      return;
    }
    const decoded: ConsumedEvent = parsed.data;
    if (!isEventOf<T, E>(decoded, opts.eventType)) {
      await deadLetter(msg, `expected ${opts.eventType}, got ${decoded.type}`);
      return;
    }
    const event = decoded;
    // the trace the publisher put in the headers continues here (a no-op when tracing is off)
    // typescript-eslint cannot resolve the jetstream package's header type (tsc can)
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    const headers: MsgHdrs | undefined = msg.headers;
    const parent = extractNatsHeaders(headers);
    const span = {
      kind: SpanKind.CONSUMER,
      parent,
      attributes: { "messaging.system": "nats", "messaging.consumer.group.name": durable, "messaging.message.id": event.id },
    };
    await withSpan(`${durable} process`, span, (active) =>
      runWithContext(
        {
          event_id: event.id,
          ...(event.org_id ? { org_id: event.org_id } : {}),
          ...(active.isRecording() ? { trace_id: active.spanContext().traceId } : {}),
        },
        async () => {
          try {
            await opts.handler(event, msg);
            if (acked) acks.add(msg);
            pipeline.consumerMessages.inc({ durable, outcome: "processed" });
          } catch (err) {
            active.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
            const count = msg.info.deliveryCount;
            if (count >= maxDeliver) {
              logger.error({ err, consumer: durable }, "event failed on its last delivery");
              await deadLetter(msg, `failed ${count} times: ${(err as Error).message}`);
              return;
            }
            const delay = err instanceof TransientError ? err.retryAfterMs : retryDelay(count);
            logger.warn({ err, consumer: durable, delivery: count, retry_in_ms: delay }, "event handling failed; will retry");
            pipeline.consumerMessages.inc({ durable, outcome: "retried" });
            msg.nak(delay);
          }
        },
      ),
    );
  };

  const loop = (async () => {
    for await (const msg of messages) {
      const p = handle(msg).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
  })();

  return {
    stop: async () => {
      await messages.close();
      await loop.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
      acks.flush();
    },
  };
}
