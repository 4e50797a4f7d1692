import type { Express, Request, Response } from "express";
import type { Drain } from "../core/drain";
import { checkAll, type HealthCheck } from "../core/health-checks";

/**
 * `/healthz`: the process runs. `/readyz`: the process can serve: it is not draining (503
 * `draining` from the first moment of shutdown) and every check of `ready` answers (else 503 with
 * the failing ones). `ready` holds only what the process cannot serve without (`Infra.ready`), not
 * every dependency it uses: a Redis blink must not take every gateway out of its Service.
 */
export function mountHealth(app: Express, ready: Record<string, HealthCheck>, opts: { drain?: Drain; timeoutMs?: number } = {}): void {
  const checks = ready;
  const timeoutMs = opts.timeoutMs ?? 2000;
  app.get("/healthz", (_req: Request, res: Response) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req: Request, res: Response) => {
    if (opts.drain?.draining) {
      res.status(503).json({ status: "draining", checks: {} });
      return;
    }
    const results = await checkAll(checks, timeoutMs);
    const ok = Object.values(results).every((s) => s === "ok");
    res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "unavailable", checks: results });
  });
}
