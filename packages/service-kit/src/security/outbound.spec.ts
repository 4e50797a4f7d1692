import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addressProblem, parseAllowlist } from "./address-policy";
import {
  RefusedTarget,
  guardedConnect,
  guardedLookup,
  guardedRequest,
  hostProblem,
  outboundPolicy,
  pinTarget,
  type HostResolver,
  type OutboundPolicy,
} from "./outbound";

const NO_DNS = { servers: [] as string[], timeout_ms: 1000 };

describe("addressProblem: the address table of the SSRF rules", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
    ["::", "IPv6 unspecified ([::])"],
    ["::1", "IPv6 loopback"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fec0::1", "deprecated site-local fec0::/10"],
    ["feff::1", "top of fec0::/10"],
    ["5f00::1", "SRv6 5f00::/16"],
    ["5f00:ffff::1", "inside 5f00::/16"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["::ffff:0:a00:1", "SIIT"],
    ["64:ff9b::a00:1", "NAT64"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:a00:1::1", "6to4"],
    ["2001::1", "Teredo"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["2001:10::1", "ORCHID"],
    ["[::1]", "bracketed"],
    ["fe80::1%eth0", "scoped"],
    ["not-an-ip", "unparseable"],
  ])("%s (%s) is refused", (address) => {
    expect(addressProblem(address)).not.toBeNull();
  });

  it.each([["93.184.216.34"], ["8.8.8.8"], ["2606:4700::1111"], ["2a00:1450:4001::200e"]])("%s (public) passes", (address) => {
    expect(addressProblem(address)).toBeNull();
  });

  it("an allow-listed range exempts its addresses and nothing else", () => {
    const allowed = parseAllowlist(["127.77.0.0/16", "fec0::/10"]);
    expect(addressProblem("127.77.1.2", allowed)).toBeNull();
    expect(addressProblem("fec0::5", allowed)).toBeNull();
    expect(addressProblem("127.0.0.1", allowed)).not.toBeNull();
  });
});

describe("hostProblem: the rules that need no DNS", () => {
  it.each([
    ["localhost"],
    ["api.localhost"],
    ["metadata.google.internal"],
    ["printer.local"],
    ["intranet"],
    ["LOCALHOST."],
    ["127.0.0.1"],
    ["[::ffff:127.0.0.1]"],
    ["[fec0::1]"],
    ["[5f00::1]"],
    ["0.0.0.0"],
    ["[::]"],
    ["good.example\n.com"],
    ["good.example.com\u0000"],
    ["good\u007f.example.com"],
    [""],
  ])("%j is refused", (host) => {
    expect(hostProblem(host)).not.toBeNull();
  });

  it("a public name or address passes; an allow-listed name passes whatever it is", () => {
    expect(hostProblem("hooks.example.com")).toBeNull();
    expect(hostProblem("8.8.8.8")).toBeNull();
    expect(hostProblem("localhost", parseAllowlist(["localhost"]))).toBeNull();
  });

  it.each([["http://2130706433/"], ["http://0177.0.0.1/"], ["http://0x7f.1/"], ["http://127.1/"], ["http://[::ffff:7f00:1]/"]])(
    "the URL parser's spelling of %s is refused as loopback",
    (url) => {
      expect(hostProblem(new URL(url).hostname)).not.toBeNull();
    },
  );
});

const fixed =
  (answers: Record<string, string[]>): HostResolver =>
  (name) =>
    Promise.resolve((answers[name] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));

describe("pinTarget and guardedLookup", () => {
  const policy = (answers: Record<string, string[]>, allowed: string[] = []): OutboundPolicy =>
    outboundPolicy({ dns: NO_DNS, allowedTargets: allowed, resolve: fixed(answers) });

  it("pins the checked address and answers it to every lookup, `all` included", async () => {
    const target = await pinTarget("Mail.Example.com.", policy({ "mail.example.com": ["93.184.216.34"] }), { port: 587, ports: [25, 587] });
    expect(target).toMatchObject({ host: "mail.example.com", address: "93.184.216.34", family: 4 });
    const one = await new Promise((resolve) => target.lookup("elsewhere.example", {}, (_e, address) => resolve(address)));
    expect(one).toBe("93.184.216.34");
    const all = await new Promise((resolve) => target.lookup("elsewhere.example", { all: true }, (_e, addresses) => resolve(addresses)));
    expect(all).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it.each([
    ["a name with one internal answer among public ones", { "mix.example.com": ["93.184.216.34", "10.0.0.1"] }, "mix.example.com", 587],
    ["a name answering fec0::/10", { "site.example.com": ["fec0::1"] }, "site.example.com", 587],
    ["a name answering 5f00::/16", { "srv6.example.com": ["5f00::1"] }, "srv6.example.com", 587],
    ["a name answering IPv4-mapped loopback", { "mapped.example.com": ["::ffff:127.0.0.1"] }, "mapped.example.com", 587],
    ["a name with no answer", {}, "gone.example.com", 587],
    ["a port outside the list", { "mail.example.com": ["93.184.216.34"] }, "mail.example.com", 6390],
  ])("refuses %s with RefusedTarget", async (_what, answers, host, port) => {
    await expect(pinTarget(host, policy(answers), { port, ports: [25, 587] })).rejects.toBeInstanceOf(RefusedTarget);
  });

  it("the allow-list exempts addresses but not ports", async () => {
    const p = policy({ "relay.test.example": ["127.77.0.9"] }, ["127.77.0.0/16"]);
    await expect(pinTarget("relay.test.example", p, { port: 2525, ports: [2525] })).resolves.toMatchObject({ address: "127.77.0.9" });
    await expect(pinTarget("relay.test.example", p, { port: 6390, ports: [2525] })).rejects.toBeInstanceOf(RefusedTarget);
  });

  it("the connection-time lookup checks then, honours `all` and `family`", async () => {
    const lookup = guardedLookup(
      policy({ "dual.example.com": ["93.184.216.34", "2606:4700::1111"], "bad.example.com": ["169.254.169.254"] }),
    );
    const all = await new Promise((resolve) => lookup("dual.example.com", { all: true, family: 6 }, (_e, a) => resolve(a)));
    expect(all).toEqual([{ address: "2606:4700::1111", family: 6 }]);
    const err = await new Promise((resolve) => lookup("bad.example.com", {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(RefusedTarget);
  });
});

describe("guardedRequest", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/redirect") res.writeHead(302, { location: "http://127.0.0.1/" }).end();
      else res.end(`hello ${req.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reaches an allow-listed name at its checked address, keeps the Host, and does not follow redirects", async () => {
    const policy = outboundPolicy({ dns: NO_DNS, allowedTargets: ["127.0.0.0/8"], resolve: fixed({ "svc.example.com": ["127.0.0.1"] }) });
    const ok = await guardedRequest(`http://svc.example.com:${port}/`, { policy, timeoutMs: 2000, maxBytes: 1024 });
    expect([ok.status, ok.body.toString()]).toEqual([200, `hello svc.example.com:${port}`]);
    const moved = await guardedRequest(`http://svc.example.com:${port}/redirect`, { policy, timeoutMs: 2000 });
    expect(moved.status).toBe(302);
  });

  it("refuses a loopback literal, a name resolving to loopback, and a URL holding a newline, before connecting", async () => {
    const policy = outboundPolicy({ dns: NO_DNS, resolve: fixed({ "svc.example.com": ["127.0.0.1"] }) });
    await expect(guardedRequest(`http://127.0.0.1:${port}/`, { policy, timeoutMs: 2000 })).rejects.toBeInstanceOf(RefusedTarget);
    await expect(guardedRequest(`http://svc.example.com:${port}/`, { policy, timeoutMs: 2000 })).rejects.toBeInstanceOf(RefusedTarget);
    await expect(guardedRequest(`http://hooks.example.com/a\nb`, { policy, timeoutMs: 2000 })).rejects.toBeInstanceOf(RefusedTarget);
  });
});

describe("guardedConnect", () => {
  it("opens a socket to the checked address of a name, and refuses a port outside the list or a refused address", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const policy = outboundPolicy({
        dns: NO_DNS,
        allowedTargets: ["127.0.0.0/8"],
        resolve: fixed({ "tcp.pinned.invalid": ["127.0.0.1"] }),
      });
      const socket = await guardedConnect("tcp.pinned.invalid", port, { policy, ports: [port], timeoutMs: 2000 });
      expect(socket.remoteAddress).toBe("127.0.0.1");
      socket.destroy();
      await expect(guardedConnect("tcp.pinned.invalid", port, { policy, ports: [25], timeoutMs: 2000 })).rejects.toBeInstanceOf(
        RefusedTarget,
      );
      const strict = outboundPolicy({ dns: NO_DNS, resolve: fixed({ "tcp.pinned.invalid": ["127.0.0.1"] }) });
      await expect(guardedConnect("tcp.pinned.invalid", port, { policy: strict, timeoutMs: 2000 })).rejects.toBeInstanceOf(RefusedTarget);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
