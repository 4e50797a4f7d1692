import { clientIp, ipInList, isPrivateOrLoopback, normalizeIp, parseCidrs } from "./client-ip";

describe("clientIp", () => {
  const trusted = parseCidrs(["10.0.0.0/8", "::1"]);

  it("when the peer is not a trusted proxy, then X-Forwarded-For is ignored", () => {
    expect(clientIp("203.0.113.9", "1.2.3.4", trusted)).toBe("203.0.113.9");
  });

  it("when the peer is trusted, then the right-most untrusted hop is the client", () => {
    expect(clientIp("10.1.2.3", "6.6.6.6, 198.51.100.7, 10.0.0.5", trusted)).toBe("198.51.100.7");
  });

  it("when no proxies are configured, then forwarded headers are never believed", () => {
    expect(clientIp("127.0.0.1", "1.2.3.4", [])).toBe("127.0.0.1");
  });

  it("when the peer is an IPv4-mapped IPv6 address, then it is reported as IPv4", () => {
    expect(normalizeIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientIp("::ffff:10.0.0.1", "192.0.2.44", trusted)).toBe("192.0.2.44");
  });

  it("when a forwarded hop is garbage, then the last trusted hop is used", () => {
    expect(clientIp("10.0.0.1", "not-an-ip", trusted)).toBe("10.0.0.1");
  });
});

describe("ipInList", () => {
  it("when matching v4 and v6 ranges, then kinds never cross", () => {
    const list = parseCidrs(["192.168.0.0/16", "2001:db8::/32"]);
    expect(ipInList("192.168.4.4", list)).toBe(true);
    expect(ipInList("2001:db8::1", list)).toBe(true);
    expect(ipInList("2001:db9::1", list)).toBe(false);
    expect(ipInList("::ffff:192.168.1.1", list)).toBe(true);
  });

  it("when an entry is malformed, then parsing throws", () => {
    expect(() => parseCidrs(["10.0.0.0/33"])).toThrow();
  });
});

describe("isPrivateOrLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["::1", true],
    ["10.2.3.4", true],
    ["172.16.0.1", true],
    ["192.168.1.1", true],
    ["fd00::1", true],
    ["8.8.8.8", false],
    ["2001:4860::8888", false],
  ])("when the caller is %s, then private/loopback is %s", (ip, expected) => {
    expect(isPrivateOrLoopback(ip)).toBe(expected);
  });
});
