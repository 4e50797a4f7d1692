import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../core/logger";
import type { Metrics } from "../core/metrics";
import type { RunningServer } from "./http";

export interface MetricsSettings {
  metrics: { enabled: boolean; path: string; port?: number | undefined };
  http: { host: string };
}

/** Whether `/metrics` is served on the HTTP port (enabled, and no `metrics.port` of its own). */
export function metricsOnHttpPort(config: MetricsSettings): boolean {
  return config.metrics.enabled && config.metrics.port === undefined;
}

/**
 * `/metrics` on its own port when `metrics.port` is set (and metrics are enabled): a bare HTTP
 * server that answers GET of `metrics.path` with the Prometheus text and 404 to anything else, so
 * the port a Service or Ingress publishes never carries it. null when there is nothing to serve.
 */
export async function serveMetricsPort(config: MetricsSettings, metrics: Metrics, logger: Logger): Promise<RunningServer | null> {
  if (!config.metrics.enabled || config.metrics.port === undefined) return null;
  const path = config.metrics.path;
  const server = createServer((req, res) => {
    const url = (req.url ?? "").split("?")[0];
    if ((req.method === "GET" || req.method === "HEAD") && url === path) {
      metrics.registry
        .metrics()
        .then((text) => {
          res.writeHead(200, { "Content-Type": metrics.registry.contentType });
          res.end(req.method === "HEAD" ? undefined : text);
        })
        .catch((err: unknown) => {
          logger.warn({ err }, "collecting metrics failed");
          res.writeHead(500, { "Content-Type": "text/plain" }).end("metrics unavailable\n");
        });
      return;
    }
    const body = JSON.stringify({ error: "route not found", code: "not_found" });
    res.writeHead(404, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.metrics.port, config.http.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, path }, "metrics listening");
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
