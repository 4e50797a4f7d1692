import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { closeReceiverConnections, sendWebhook } from "./webhook-sender";
import { EMPTY_ALLOWLIST, parseAllowlist, type Allowlist } from "@burnbox/service-kit/security";

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
    expect(result.error).toMatch(/^refused: .*64:ff9b::7f00:1.*NAT64/);
  });

  it("when the URL host is an IPv4-compatible literal, then the attempt is refused before any lookup", async () => {
    const result = await send("http://[::127.0.0.1]/x", () => Promise.reject(new Error("no lookup expected")));
    expect(result.error).toMatch(/^refused: url host is not allowed/);
  });

  it.each([["fec0::1"], ["5f00::1"], ["::ffff:127.0.0.1"]])(
    "when a name resolves to %s, then the attempt fails as refused without connecting",
    async (address) => {
      const result = await send("http://hooks.example.test/x", () => Promise.resolve([{ address, family: 6 }]));
      expect(result).toMatchObject({ success: false, status: null });
      expect(result.error).toMatch(/^refused: host is not allowed: address .* is not publicly routable/);
    },
  );

  it("when a stored URL holds a control character, then the attempt is refused before any lookup", async () => {
    const result = await send("http://hooks.example.test/a\nb", () => Promise.reject(new Error("no lookup expected")));
    expect(result).toMatchObject({ success: false, status: null, error: "refused: url must not contain control characters" });
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

describe("connections to receivers", () => {
  const local = parseAllowlist(["127.0.0.0/8"]);
  const toLocal = () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
  afterEach(() => closeReceiverConnections());

  /** A receiver that counts its connections; `onRequest` may answer or break the connection. */
  async function receiver(onRequest: (n: { connection: number; onConnection: number }, socket: Socket) => boolean) {
    const connections = new Map<Socket, number>();
    const perConnection = new Map<Socket, number>();
    const server = createServer((req, res) => {
      const onConnection = (perConnection.get(req.socket) ?? 0) + 1;
      perConnection.set(req.socket, onConnection);
      if (onRequest({ connection: connections.get(req.socket) as number, onConnection }, req.socket)) res.end();
    });
    server.on("connection", (socket: Socket) => connections.set(socket, connections.size + 1));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return {
      url: `http://receiver.example.test:${(server.address() as AddressInfo).port}/x`,
      connections: () => connections.size,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }

  it("when deliveries go to one receiver in turn, then they share one connection", async () => {
    const r = await receiver(() => true);
    try {
      for (let i = 0; i < 3; i++) expect(await send(r.url, toLocal, local)).toMatchObject({ success: true, status: 200 });
      expect(r.connections()).toBe(1);
    } finally {
      await r.close();
    }
  });

  it("when the receiver resets a kept connection as it is reused, then the POST is sent once more on a new connection", async () => {
    const r = await receiver(({ connection, onConnection }, socket) => {
      if (connection === 1 && onConnection === 2) {
        socket.resetAndDestroy();
        return false;
      }
      return true;
    });
    try {
      expect(await send(r.url, toLocal, local)).toMatchObject({ success: true });
      expect(await send(r.url, toLocal, local)).toMatchObject({ success: true, status: 200, error: null });
      expect(r.connections()).toBe(2);
    } finally {
      await r.close();
    }
  });

  it("when a fresh connection is reset, then the attempt fails and is not sent again", async () => {
    let requests = 0;
    const r = await receiver((_n, socket) => {
      requests += 1;
      socket.resetAndDestroy();
      return false;
    });
    try {
      expect(await send(r.url, toLocal, local)).toMatchObject({ success: false, status: null });
      expect(requests).toBe(1);
    } finally {
      await r.close();
    }
  });
});
