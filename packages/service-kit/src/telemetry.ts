import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";

/**
 * OpenTelemetry for every service. Only `@opentelemetry/api` (and `@opentelemetry/core`'s
 * request-metadata accessor) is imported here: without a registered SDK every call below is the
 * API's no-op (no span is recorded, nothing is injected),
 * so the hot paths cost nothing measurable when tracing is off. The SDK itself is loaded by
 * `startTelemetry`, which main.ts calls before it loads the service (express, pg, http), so the
 * SDK's require hooks patch those modules as they load.
 */

export type { Context };
export { SpanKind, SpanStatusCode };

const TRACER = "burnbox";
export const tracer = () => trace.getTracer(TRACER);

/** The standard variables that switch tracing on; `OTEL_SDK_DISABLED=true` keeps it off. */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (exporters.includes("none")) return false;
  return exporters.length > 0 || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts the Node SDK (traces only unless `OTEL_METRICS_EXPORTER`/`OTEL_LOGS_EXPORTER` ask for
 * more: Prometheus serves metrics) with HTTP server/client, express, pg and undici spans,
 * exporting as the standard `OTEL_*` variables say. Returns null, loading nothing, when they do
 * not ask for tracing.
 */
export async function startTelemetry(opts: { service: string; env: Record<string, string | undefined> }): Promise<Telemetry | null> {
  if (!tracingRequested(opts.env)) return null;
  try {
    return await startSdk(opts.service, opts.env);
  } catch (err) {
    // a service without traces beats a service that does not start; no logger exists yet
    process.stderr.write(`tracing not started: ${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

async function startSdk(service: string, env: Record<string, string | undefined>): Promise<Telemetry> {
  const [{ NodeSDK }, { getNodeAutoInstrumentations }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/auto-instrumentations-node"),
  ]);
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: service }),
    ...(env.OTEL_METRICS_EXPORTER ? {} : { metricReaders: [] }),
    ...(env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      getNodeAutoInstrumentations({
        // noisy or covered elsewhere: file and socket calls, DNS; pino gets the trace id from our mixin
        "@opentelemetry/instrumentation-fs": { enabled: false },
        "@opentelemetry/instrumentation-net": { enabled: false },
        "@opentelemetry/instrumentation-dns": { enabled: false },
        "@opentelemetry/instrumentation-pino": { enabled: false },
        "@opentelemetry/instrumentation-http": {
          ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? ""),
        },
      }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

/**
 * Names the route of the HTTP request being served, for the HTTP instrumentation's server span
 * (its name and `http.route`), as express's instrumentation does for the routes it sees mounted.
 * For a request routed outside express's application (the gateway's forwarding lane). A no-op
 * when tracing is off.
 */
export function setHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}

/** The trace id of the active span, if one is recording (for log lines). */
export function activeTraceId(): string | undefined {
  const span = trace.getSpan(context.active());
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/** The active trace context as W3C headers (`traceparent`, `tracestate`); empty when tracing is off. */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** A trace context from W3C headers (`traceparent`...), the root context when there are none. */
export function contextFromHeaders(headers: Record<string, unknown> | undefined): Context {
  if (!headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers, recordGetter);
}

const recordGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (c) => Object.keys(c),
  get: (c, k) => {
    const v = c[k];
    return typeof v === "string" ? v : Array.isArray(v) ? (v as string[]) : undefined;
  },
};

/** NATS message headers, as the propagator reads and writes them. */
export interface HeaderBag {
  get(k: string): string;
  set(k: string, v: string): void;
  keys(): string[];
}

export const natsHeaderGetter: TextMapGetter<HeaderBag | undefined> = {
  keys: (h) => h?.keys() ?? [],
  get: (h, k) => h?.get(k) || undefined,
};

export const natsHeaderSetter: TextMapSetter<HeaderBag> = {
  set: (h, k, v) => h.set(k, v),
};

/** Writes the trace context into NATS headers. */
export function injectNatsHeaders(h: HeaderBag, ctx: Context = context.active()): void {
  propagation.inject(ctx, h, natsHeaderSetter);
}

/** Reads the trace context out of NATS headers. */
export function extractNatsHeaders(h: HeaderBag | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, h, natsHeaderGetter);
}

/**
 * Runs `fn` inside a new span (child of `parent`, else of the active context), ending it when
 * `fn` settles and marking it failed when `fn` throws.
 */
export async function withSpan<T>(
  name: string,
  opts: { kind: SpanKind; parent?: Context; attributes?: Record<string, string | number | boolean> },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: opts.kind, ...(opts.attributes ? { attributes: opts.attributes } : {}) }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Tests: a tracer provider that keeps spans in memory (W3C propagation, async-context aware),
 * registered globally until `stop()`.
 */
export async function startInMemoryTracing(): Promise<{
  spans(): { name: string; traceId: string; spanId: string; parentSpanId: string | undefined; kind: SpanKind }[];
  stop(): Promise<void>;
}> {
  const { node, tracing } = await import("@opentelemetry/sdk-node");
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
  provider.register();
  return {
    spans: () =>
      exporter.getFinishedSpans().map((s) => ({
        name: s.name,
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentSpanId: s.parentSpanContext?.spanId,
        kind: s.kind,
      })),
    stop: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
