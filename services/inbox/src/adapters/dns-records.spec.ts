import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dns2 from "dns2";
import { DnsLookupError, DnsRecords, parseServer, type LookupBudget } from "./dns-records";

const { Packet } = dns2;

interface Zone {
  txt?: string[];
  a?: string[];
  mx?: Array<{ exchange: string; priority: number }>;
  ttl?: number;
  fail?: "servfail" | "silent";
}

/** A DNS server on 127.0.0.1 answering from `zones`, counting the questions it gets. */
async function dnsServer(zones: Map<string, Zone>): Promise<{ port: number; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const q = request.questions[0]!;
      asked.push(`${q.type} ${q.name}`);
      const response = Packet.createResponseFromRequest(request);
      const zone = zones.get(q.name.toLowerCase());
      if (zone?.fail === "silent") return;
      if (zone?.fail === "servfail") response.header.rcode = 2;
      else if (!zone) response.header.rcode = 3;
      else {
        const ttl = zone.ttl ?? 300;
        if (q.type === Packet.TYPE.TXT)
          for (const data of zone.txt ?? []) response.answers.push(Packet.createResourceFromQuestion(q, { ttl, data }));
        if (q.type === Packet.TYPE.A)
          for (const address of zone.a ?? []) response.answers.push(Packet.createResourceFromQuestion(q, { ttl, address }));
        if (q.type === Packet.TYPE.MX)
          for (const mx of zone.mx ?? []) response.answers.push(Packet.createResourceFromQuestion(q, { ttl, ...mx }));
      }
      void send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = (listening.udp as AddressInfo).port;
  return { port, asked, close: () => server.close() };
}

/** A UDP port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => s.bind(0, "127.0.0.1", resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("DnsRecords", () => {
  const zones = new Map<string, Zone>([
    ["example.org", { txt: ["v=spf1 ip4:192.0.2.1 -all"], a: ["192.0.2.1"], mx: [{ exchange: "mx.example.org", priority: 10 }], ttl: 60 }],
    ["short.example.org", { txt: ["v=spf1 -all"], ttl: 1 }],
    ["broken.example.org", { fail: "servfail" }],
    ["silent.example.org", { fail: "silent" }],
  ]);
  let server: Awaited<ReturnType<typeof dnsServer>>;
  let clock = 1_000_000;
  const now = () => clock;
  const budget = (ms = 1_000, lookups = 10): LookupBudget => ({ deadline: Date.now() + ms, lookupsLeft: lookups });

  beforeAll(async () => {
    server = await dnsServer(zones);
  });
  afterAll(async () => {
    await server.close();
  });

  const records = () => new DnsRecords({ servers: [`127.0.0.1:${server.port}`], timeoutMs: 1_000 });

  it("when records exist, then they come back in node:dns's shapes: TXT as lists of strings, A as addresses, MX as exchange and priority", async () => {
    const r = records();
    expect(await r.lookup("example.org", "TXT", budget())).toEqual([["v=spf1 ip4:192.0.2.1 -all"]]);
    expect(await r.lookup("example.org", "A", budget())).toEqual(["192.0.2.1"]);
    expect(await r.lookup("example.org", "MX", budget())).toEqual([{ exchange: "mx.example.org", priority: 10 }]);
  });

  it("when a name does not exist or has no such record, then the lookup fails with ENOTFOUND or ENODATA", async () => {
    const r = records();
    await expect(r.lookup("nothing.example.org", "TXT", budget())).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(r.lookup("short.example.org", "A", budget())).rejects.toMatchObject({ code: "ENODATA" });
  });

  it("when an answer is asked again within its TTL, then it comes from the cache; after the TTL, from the server again", async () => {
    const r = new DnsRecords({ servers: [`127.0.0.1:${server.port}`], timeoutMs: 1_000, now });
    server.asked.length = 0;
    await r.lookup("short.example.org", "TXT", { deadline: clock + 1_000, lookupsLeft: 5 });
    await r.lookup("SHORT.example.org.", "TXT", { deadline: clock + 1_000, lookupsLeft: 5 });
    expect(server.asked).toHaveLength(1);
    clock += 1_001; // its TTL is 1 s
    await r.lookup("short.example.org", "TXT", { deadline: clock + 1_000, lookupsLeft: 5 });
    expect(server.asked).toHaveLength(2);
    // a negative answer without a SOA is not kept (RFC 2308)
    await expect(r.lookup("nothing.example.org", "TXT", { deadline: clock + 1_000, lookupsLeft: 5 })).rejects.toBeInstanceOf(
      DnsLookupError,
    );
    await expect(r.lookup("nothing.example.org", "TXT", { deadline: clock + 1_000, lookupsLeft: 5 })).rejects.toBeInstanceOf(
      DnsLookupError,
    );
    expect(server.asked).toHaveLength(4);
    expect(r.size).toBe(1);
  });

  it("when several messages ask the same at once, then one query goes out", async () => {
    const r = records();
    server.asked.length = 0;
    await Promise.all([1, 2, 3].map(() => r.lookup("example.org", "TXT", budget())));
    expect(server.asked).toEqual([`${Packet.TYPE.TXT} example.org`]);
  });

  it("when the server answers SERVFAIL, then the lookup fails with ESERVFAIL and nothing is kept", async () => {
    const r = records();
    await expect(r.lookup("broken.example.org", "TXT", budget())).rejects.toMatchObject({ code: "ESERVFAIL" });
    expect(r.size).toBe(0);
  });

  it("when the server does not answer, then the lookup fails with ETIMEOUT once the message's budget is spent", async () => {
    // a query timeout far past the test's own: only the budget can end this lookup in time
    const r = new DnsRecords({ servers: [`127.0.0.1:${server.port}`], timeoutMs: 60_000 });
    await expect(r.lookup("silent.example.org", "TXT", budget(100))).rejects.toMatchObject({ code: "ETIMEOUT" });
  });

  it("when a message has used up its lookups or its time, then further lookups fail with ETIMEOUT without asking", async () => {
    const r = records();
    server.asked.length = 0;
    const b = budget(1_000, 1);
    await r.lookup("example.org", "A", b);
    await expect(r.lookup("example.org", "MX", b)).rejects.toMatchObject({ code: "ETIMEOUT" });
    await expect(r.lookup("example.org", "MX", budget(-1))).rejects.toMatchObject({ code: "ETIMEOUT" });
    expect(server.asked).toHaveLength(1);
  });

  it("when no server listens on the configured port, then the lookup fails at once with ECONNREFUSED, not after the timeout", async () => {
    // the query timeout and the budget are far past the test's own: only the refusal can end this in time
    const r = new DnsRecords({ servers: [`127.0.0.1:${await closedPort()}`], timeoutMs: 60_000 });
    await expect(r.lookup("example.org", "TXT", budget(60_000))).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("when servers are written host:port, [v6]:port or bare, then each is read with port 53 by default", () => {
    expect(parseServer("127.0.0.1:5353")).toEqual({ host: "127.0.0.1", port: 5353 });
    expect(parseServer("[::1]:5353")).toEqual({ host: "::1", port: 5353 });
    expect(parseServer("::1")).toEqual({ host: "::1", port: 53 });
    expect(parseServer("dns.example.org")).toEqual({ host: "dns.example.org", port: 53 });
  });
});
