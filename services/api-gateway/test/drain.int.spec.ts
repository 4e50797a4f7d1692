import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { redisKeys } from "@burnbox/contracts";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { uniqueNamespace, waitFor, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { gatewayTestConfig } from "./gateway-config";

/**
 * An inbox stand-in that holds every wait (`/inboxes/{id}/emails/wait`) until its own test says
 * so, and answers one asked with `timeout=0` at once, as the inbox service does: with what it
 * holds and `timed_out: true`. Every other request: `{}`.
 */
async function holdingInbox(): Promise<{
  url: string;
  held: Array<{ url: string; closed: boolean }>;
  asked: string[];
  close(): Promise<void>;
}> {
  const held: Array<{ url: string; closed: boolean }> = [];
  const asked: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "";
    asked.push(url);
    res.setHeader("content-type", "application/json");
    if (!url.includes("/emails/wait")) return void res.end("{}");
    const query = new URL(url, "http://x").searchParams;
    if (query.get("timeout") === "0") {
      res.end(
        JSON.stringify({
          data: [],
          matched: 0,
          timed_out: true,
          subject_asked: query.get("subject"),
          header_asked: query.getAll("header"),
        }),
      );
      return;
    }
    const hold = { url, closed: false };
    res.once("close", () => (hold.closed = true));
    held.push(hold);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The gateway's own drain (shutdown.drain_delay, then its hooks, then the close bounded by
 * shutdown.drain_timeout) against forwarded long polls: a wait may last 120 s, longer than the
 * drain may, so the gateway answers it (asking the inbox again with timeout=0) instead of cutting it.
 */
describe("api-gateway draining with forwarded waits", () => {
  let inbox: Awaited<ReturnType<typeof holdingInbox>>;
  let infra: Infra;
  let gw: RunningService;
  let base: string;
  const token = jwt.sign(
    {
      sub: randomUUID(),
      email: "u@example.test",
      is_system_admin: false,
      sid: randomUUID(),
      jti: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 900,
    },
    TEST_JWT_SECRET,
    { algorithm: "HS256" },
  );

  beforeAll(async () => {
    inbox = await holdingInbox();
    const ns = uniqueNamespace("gwdrain");
    const config = gatewayTestConfig(ns, {
      "http.port": 0,
      "http.host": "127.0.0.1",
      "services.inbox_url": inbox.url,
      "shutdown.drain_delay": "0s",
      // far shorter than the waits (2 minutes): a wait the close cut would show as a failed fetch
      "shutdown.drain_timeout": "5s",
    });
    infra = await startInfra({ config, redis: true });
    // the revocation list is complete: a JWT is admitted without asking identity
    await infra.redis?.set(redisKeys.revocationsSeeded(`${ns}:`), "1");
    gw = await startService(config, infra);
    base = `http://127.0.0.1:${gw.port}/api/v1`;
  });

  afterAll(async () => {
    await infra?.close();
    await inbox?.close();
  });

  it("when the gateway drains while waits are forwarded, then each is answered (timeout=0 asked of the inbox, its other matchers kept), not cut", async () => {
    const inboxId = randomUUID();
    const waits = [
      fetch(`${base}/inboxes/${inboxId}/emails/wait?subject=Verify&header=X-Test-Run%3A%20r1&timeout=2m`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      fetch(`${base}/inboxes/${inboxId}/emails/wait?count=2`, { headers: { authorization: `Bearer ${token}` } }),
    ];
    await waitFor(() => inbox.held.length === 2 || undefined, { what: "both waits held by the inbox" });

    const drained = infra.drain.shutdown(() => gw.stop());
    const answers = await Promise.all(waits);
    for (const r of answers) expect(r.status).toBe(200);
    const [first, second] = (await Promise.all(answers.map((r) => r.json()))) as Array<Record<string, unknown>>;
    expect(first).toMatchObject({ data: [], matched: 0, timed_out: true, subject_asked: "Verify", header_asked: ["X-Test-Run: r1"] });
    expect(second).toMatchObject({ timed_out: true });
    await drained;

    const reasked = inbox.asked.filter((u) => u.includes("timeout=0"));
    expect(reasked).toHaveLength(2);
    expect(reasked).toContain(`/api/v1/inboxes/${inboxId}/emails/wait?subject=Verify&header=X-Test-Run%3A%20r1&timeout=0`);
    expect(reasked).toContain(`/api/v1/inboxes/${inboxId}/emails/wait?count=2&timeout=0`);
    // the held originals were let go by the gateway (their sockets closed), nothing answered them
    await waitFor(() => inbox.held.every((h) => h.closed) || undefined, { what: "the originals released" });
  });
});
