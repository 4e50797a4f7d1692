import type { Express, Request, Response } from "express";
import type { Drain } from "../runtime/drain";

export type HealthCheck = () => Promise<unknown>;

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

export async function checkAll(checks: Record<string, HealthCheck>, timeoutMs = 2000): Promise<Record<string, "ok" | "down">> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
          }),
        ]);
        return [name, "ok"] as const;
      } catch {
        return [name, "down"] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** Each check with its own latency (ms), for the admin health ping. */
export async function timedChecks(
  checks: Record<string, HealthCheck>,
  timeoutMs = 2000,
): Promise<Record<string, { status: "ok" | "down"; latency_ms: number }>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const start = performance.now();
      const status = (await checkAll({ [name]: check }, timeoutMs))[name] ?? "down";
      return [name, { status, latency_ms: Math.round(performance.now() - start) }] as const;
    }),
  );
  return Object.fromEntries(entries);
}
