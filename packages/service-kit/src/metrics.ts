import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpMiddleware: RequestHandler;
  handler: RequestHandler;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const httpMiddleware = (req: Request, res: Response, next: NextFunction) => {
    const end = duration.startTimer();
    res.on("finish", () => {
      // The matched route template, never the raw URL, keeps label cardinality bounded.
      const route = (req.route as { path?: string } | undefined)?.path ?? "unmatched";
      end({ method: req.method, route: `${req.baseUrl}${route}`, status: String(res.statusCode) });
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
