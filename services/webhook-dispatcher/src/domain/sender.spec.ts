import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sendWebhook } from "./sender";
import { EMPTY_ALLOWLIST, parseAllowlist, type Allowlist } from "@burnbox/service-kit";

const send = (
  url: string,
  resolver: (host: string) => Promise<Array<{ address: string; family: number }>>,
  allowed: Allowlist = EMPTY_ALLOWLIST,
) => sendWebhook({ url, secret: "s", body: "{}", event: "email.received", deliveryId: "d", timeoutMs: 1000, allowed, resolver });

describe("the dispatch-time address check", () => {
  it("when a name resolves to a NAT64 address of loopback, then the attempt fails as refused without connecting", async () => {
    const resolved: string[] = [];
    const result = await send("http://hooks.example.test/x", (host) => {
      resolved.push(host);
      return Promise.resolve([{ address: "64:ff9b::7f00:1", family: 6 }]);
    });
    expect(resolved).toEqual(["hooks.example.test"]);
    expect(result).toMatchObject({ success: false, status: null });
    expect(result.error).toMatch(/^refused: hooks\.example\.test resolves to a non-public address \(64:ff9b::7f00:1\)/);
  });

  it("when the URL host is an IPv4-compatible literal, then the attempt is refused before any lookup", async () => {
    const result = await send("http://[::127.0.0.1]/x", () => Promise.reject(new Error("no lookup expected")));
    expect(result.error).toMatch(/^refused: .*IPv4-compatible/);
  });

  it("when the name resolves to an allowed local receiver, then the signed POST is sent there", async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(String(req.headers["x-service-delivery-id"]));
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const result = await send(
        `http://receiver.example.test:${port}/x`,
        () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
        parseAllowlist(["127.0.0.0/8"]),
      );
      expect(result).toMatchObject({ success: true, status: 200, error: null });
      expect(received).toEqual(["d"]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
