import { Router } from "express";
import { Drain } from "../src/core/drain";
import { createLogger } from "../src/core/logger";
import { createMetrics } from "../src/core/metrics";
import { serveApi } from "../src/http/api-server";
import { INTERNAL_CONTEXT_HEADER, signInternalContext } from "../src/security/internal-auth";

const logger = createLogger({ level: "silent", service: "test" });
const OLD = "o".repeat(32);
const NEW = "n".repeat(32);
const ctx = { actor: null, client_ip: "127.0.0.1", request_id: "rotation" };

/** A service as every service serves its API (serveApi), with the given internal secrets. */
async function service(internal: { secret: string; secret_previous?: string }) {
  const router = Router();
  router.get("/who", (_req, res) => {
    res.json({ ok: true });
  });
  return serveApi({
    config: { http: { port: 0, host: "127.0.0.1" }, internal, metrics: { enabled: false, path: "/metrics" } },
    infra: { logger, metrics: createMetrics("test"), ready: {}, drain: new Drain({ delayMs: 0, timeoutMs: 1000 }) },
    routers: [router],
  });
}

const ask = (port: number, signedWith: string) =>
  fetch(`http://127.0.0.1:${port}/api/v1/who`, { headers: { [INTERNAL_CONTEXT_HEADER]: signInternalContext(ctx, signedWith) } });

describe("rotating the internal secret (docs/operations.md)", () => {
  it("when a service runs the new secret with the old as previous, then gateways on either are served, and any other secret is refused", async () => {
    const rolling = await service({ secret: NEW, secret_previous: OLD });
    const before = await service({ secret: OLD });
    const after = await service({ secret: NEW });
    try {
      // step 1 (services roll to NEW + previous OLD): a gateway still on OLD is served by old and new pods alike
      expect((await ask(rolling.port, OLD)).status).toBe(200);
      expect((await ask(before.port, OLD)).status).toBe(200);
      // step 2 (the gateways roll to NEW): served by every rolled pod
      expect((await ask(rolling.port, NEW)).status).toBe(200);
      expect((await ask(rolling.port, "x".repeat(32))).status).toBe(401);
      // step 3 (previous removed): the old secret's contexts are refused from then on
      expect((await ask(after.port, NEW)).status).toBe(200);
      expect((await ask(after.port, OLD)).status).toBe(401);
    } finally {
      await Promise.all([rolling.close(), before.close(), after.close()]);
    }
  });
});
