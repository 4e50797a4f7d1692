import { connect as tcpConnect, createServer, type Server } from "node:net";
import { testInfra } from "@burnbox/test-kit";
import { connectNats } from "../src/messaging";

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("connectNats with the members of a cluster", () => {
  // the test's NATS reached on a port of its own (a plain TCP relay), so that it is not the
  // client's default port: a list read as one URL would land there by accident
  let relay: Server;
  let relayPort: number;
  beforeAll(async () => {
    const target = new URL(testInfra.natsUrl);
    relay = createServer((client) => {
      const upstream = tcpConnect(Number(target.port || 4222), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    relayPort = await listen(relay);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => relay.close(() => resolve()));
  });

  it("when a listed member refuses connections, then the process connects to another one listed", async () => {
    // the member that is down comes last: the client's own parse of a comma-separated string keeps only that one
    const nc = await connectNats(`nats://127.0.0.1:${relayPort}, nats://127.0.0.1:${await closedPort()}`, "kit-servers-test");
    try {
      await nc.flush();
      expect(nc.getServer()).toBe(`127.0.0.1:${relayPort}`);
    } finally {
      await nc.close();
    }
  });
});
