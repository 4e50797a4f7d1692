import type { Express, NextFunction, Request, Response, Router } from "express";
import { createHttpApp, finalizeHttpApp, listen, type RunningServer } from "./http";
import { mountHealth } from "./health";
import { requireInternalContext } from "../security/internal-auth";
import { metricsOnHttpPort, serveMetricsPort, type MetricsSettings } from "./metrics-port";
import type { Drain } from "../core/drain";
import type { HealthCheck } from "../core/health-checks";
import type { Logger } from "../core/logger";
import type { Metrics } from "../core/metrics";

export const API_PREFIX = "/api/v1";

/** What the API server uses of the process's infrastructure (`runtime`'s `Infra` is one). */
export interface HttpInfra {
  logger: Logger;
  metrics: Metrics;
  ready: Record<string, HealthCheck>;
  drain: Drain;
}

/**
 * The HTTP side of every internal service, built the same way everywhere: security headers and
 * request id, `/healthz` and `/readyz`, `/metrics` (or on `metrics.port`, its own), then the service's routers under `/api/v1`
 * behind the gateway's signed internal context, then the envelope error handler.
 */
export async function serveApi(opts: {
  config: { http: { port: number; host: string }; internal: { secret: string; secret_previous?: string | undefined } } & MetricsSettings;
  infra: HttpInfra;
  routers: Router[];
  /** Anything mounted before the API routes (e.g. public, non-JSON endpoints). */
  before?: (app: Express) => void;
}): Promise<RunningServer & { app: Express }> {
  const { config, infra } = opts;
  const app = createHttpApp({ logger: infra.logger, metrics: infra.metrics });
  mountHealth(app, infra.ready, { drain: infra.drain });
  if (metricsOnHttpPort(config)) {
    app.get(config.metrics.path, (req: Request, res: Response, next: NextFunction) => void infra.metrics.handler(req, res, next));
  }
  opts.before?.(app);
  const accepted = [config.internal.secret, ...(config.internal.secret_previous ? [config.internal.secret_previous] : [])];
  app.use(API_PREFIX, requireInternalContext(accepted), ...opts.routers);
  finalizeHttpApp(app, infra.logger);
  const metricsPort = await serveMetricsPort(config, infra.metrics, infra.logger);
  const server = await listen(app, config.http.port, config.http.host, { drainTimeoutMs: infra.drain.settings.timeoutMs }).catch(
    async (err: unknown) => {
      await metricsPort?.close();
      throw err;
    },
  );
  infra.logger.info({ port: server.port }, "listening");
  return {
    ...server,
    app,
    close: async () => {
      await Promise.all([server.close(), metricsPort?.close()]);
    },
  };
}
