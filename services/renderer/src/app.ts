import { Counter, Gauge, Histogram } from "prom-client";
import { parseDurationMs } from "@burnbox/contracts";
import { createHttpApp, finalizeHttpApp, listen, metricsOnHttpPort, mountHealth, serveMetricsPort } from "@burnbox/service-kit/http";
import { StopList, type Infra } from "@burnbox/service-kit/runtime";
import { outboundPolicy } from "@burnbox/service-kit/security";
import type { RendererConfig } from "./config";
import { BrowserHost } from "./adapters/chromium";
import { imageFetcher, type ImageFetcher } from "./adapters/image-fetcher";
import type { RendererDeps, RenderMetrics } from "./domain/deps";
import { Gate } from "./domain/gate";
import { serveRender } from "./messaging/render.rpc";

export interface RunningService {
  port: number;
  deps: RendererDeps;
  browser: BrowserHost;
  stop(): Promise<void>;
}

function renderMetrics(infra: Infra): RenderMetrics {
  const registers = [infra.metrics.registry];
  return {
    renders: new Counter({
      name: "burnbox_renders_total",
      help: "Renders by width and outcome (ok, busy, timeout, too_large, invalid, failed)",
      labelNames: ["width", "outcome"],
      registers,
    }),
    duration: new Histogram({
      name: "burnbox_render_duration_seconds",
      help: "One render, from its turn to the picture, by width",
      labelNames: ["width"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
      registers,
    }),
    waiting: new Gauge({ name: "burnbox_render_waiting", help: "Renders waiting for a turn on this replica", registers }),
  };
}

/**
 * The renderer (extensions section 12): the one deployable that holds a browser. It serves the
 * render subject over NATS (a queue group: replicas share the requests), has no database and
 * reads no other service's; health and metrics on http.port. stop(): the subscription drains,
 * the renders it holds finish, then the browser closes.
 */
export async function startService(
  config: RendererConfig,
  infra: Infra,
  opts: { fetchImage?: ImageFetcher; env?: Record<string, string | undefined> } = {},
): Promise<RunningService> {
  const { logger } = infra;
  if (config.images.unsafe_allowed_targets.length > 0) {
    logger.warn(
      { unsafe_allowed_targets: config.images.unsafe_allowed_targets },
      "UNSAFE: images.unsafe_allowed_targets is set; these hosts bypass SSRF protection. Use only for local test servers, never in production",
    );
  }
  const stops = new StopList();
  const policy = outboundPolicy({ dns: config.dns, allowedTargets: config.images.unsafe_allowed_targets });
  const browser = new BrowserHost({
    executablePath: config.chromium.executable_path,
    fontconfigFile: config.chromium.fontconfig_file,
    restartAfter: config.chromium.restart_after_renders,
    fetchImage:
      opts.fetchImage ?? imageFetcher(policy, { timeoutMs: parseDurationMs(config.images.timeout), maxBytes: config.images.max_bytes }),
    logger,
    ...(opts.env ? { env: opts.env } : {}),
  });
  stops.addStep(() => browser.stop());
  await browser.start();
  const deps: RendererDeps = { config, painter: browser, metrics: renderMetrics(infra) };
  const gate = new Gate(config.render.concurrency, config.render.max_queue);
  stops.add(serveRender(infra.nc, config.nats.namespace, deps, gate, logger));
  const app = createHttpApp({ logger, metrics: infra.metrics });
  mountHealth(app, infra.ready, { drain: infra.drain });
  if (metricsOnHttpPort(config)) app.get(config.metrics.path, infra.metrics.handler);
  finalizeHttpApp(app, logger);
  const metricsPort = await serveMetricsPort(config, infra.metrics, logger);
  const health = await listen(app, config.http.port, config.http.host, { drainTimeoutMs: infra.drain.settings.timeoutMs });
  stops.addStep(() => Promise.all([health.close(), metricsPort?.close()]).then(() => undefined));
  logger.info({ port: health.port }, "renderer listening");
  return { port: health.port, deps, browser, stop: () => stops.stop() };
}
