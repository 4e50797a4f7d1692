import { proxyV1, proxyV2, V2_SIGNATURE } from "../../test/proxy-header";
import { cidrProblem, isTrustedPeer, parseProxyHeader, trustedPeers, V1_MAX_BYTES, V2_MAX_BYTES } from "./proxy-protocol";

const smtp = Buffer.from("EHLO client.example\r\n");

describe("parseProxyHeader", () => {
  it("when a version 1 header names a TCP4 or TCP6 client, then that client is the source and the header's length is where SMTP begins", () => {
    const v4 = proxyV1("203.0.113.7", 40123);
    expect(parseProxyHeader(Buffer.concat([v4, smtp]))).toEqual({
      state: "parsed",
      version: 1,
      length: v4.length,
      source: { address: "203.0.113.7", port: 40123 },
    });
    const v6 = Buffer.from("PROXY TCP6 2001:DB8:0:0:0:0:0:7 2001:db8::25 65535 25\r\n");
    expect(parseProxyHeader(v6)).toEqual({
      state: "parsed",
      version: 1,
      length: v6.length,
      source: { address: "2001:db8::7", port: 65535 },
    });
  });

  it("when a version 1 header says UNKNOWN, then it is read and names no source (the peer's address stands)", () => {
    expect(parseProxyHeader(Buffer.from("PROXY UNKNOWN\r\n"))).toEqual({ state: "parsed", version: 1, length: 15, source: null });
    const long = Buffer.from("PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n");
    expect(parseProxyHeader(long)).toMatchObject({ state: "parsed", length: long.length, source: null });
  });

  it("when the bytes so far may still become a header, then it is incomplete, whatever the split", () => {
    for (const header of [proxyV1("203.0.113.7", 1), proxyV2("203.0.113.7", 1), proxyV2("2001:db8::7", 1)]) {
      for (let n = 0; n < header.length; n++) expect(parseProxyHeader(header.subarray(0, n))).toEqual({ state: "incomplete" });
      expect(parseProxyHeader(header)).toMatchObject({ state: "parsed" });
    }
  });

  it("when a version 1 header is malformed, then it is invalid with the reason", () => {
    const bad: Array<[string, RegExp]> = [
      ["PROXY TCP4 203.0.113.7 192.0.2.25 1 25\n", /CRLF/],
      ["PROXY TCP4 203.0.113.7 192.0.2.25 1\r\n", /five fields/],
      ["PROXY UDP4 203.0.113.7 192.0.2.25 1 25\r\n", /unknown protocol/],
      ["PROXY TCP4 2001:db8::7 192.0.2.25 1 25\r\n", /not TCP4/],
      ["PROXY TCP6 203.0.113.7 2001:db8::25 1 25\r\n", /not TCP6/],
      ["PROXY TCP4 mx.example 192.0.2.25 1 25\r\n", /not TCP4/],
      ["PROXY TCP4 203.0.113.7 192.0.2.25 65536 25\r\n", /bad port/],
      ["PROXY TCP4 203.0.113.7 192.0.2.25 01 25\r\n", /bad port/],
      ["PROXY TCP4 203.0.113.7 192.0.2.25 -1 25\r\n", /bad port/],
    ];
    for (const [line, reason] of bad)
      expect(parseProxyHeader(Buffer.from(line))).toEqual({ state: "invalid", reason: expect.stringMatching(reason) });
  });

  it("when a version 1 header runs past 107 bytes without its line end, then it is invalid, not waited for", () => {
    const long = Buffer.from(`PROXY UNKNOWN ${"x".repeat(V1_MAX_BYTES)}`);
    expect(parseProxyHeader(long.subarray(0, V1_MAX_BYTES - 1))).toEqual({ state: "incomplete" });
    expect(parseProxyHeader(long.subarray(0, V1_MAX_BYTES))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/107/) });
    expect(parseProxyHeader(Buffer.from(`PROXY UNKNOWN ${"x".repeat(V1_MAX_BYTES)}\r\n`))).toMatchObject({ state: "invalid" });
  });

  it("when the connection opens with anything but a header (SMTP, TLS, junk), then it is invalid at once", () => {
    for (const first of ["EHLO client.example\r\n", "PROX\r\n", "proxy TCP4", "\x16\x03\x01", "\r\n\r\n\x00\r\nQUIX"])
      expect(parseProxyHeader(Buffer.from(first, "latin1"))).toMatchObject({ state: "invalid", reason: "not a PROXY protocol header" });
    // a first byte that may begin either version waits for the next
    expect(parseProxyHeader(Buffer.from("P"))).toEqual({ state: "incomplete" });
    expect(parseProxyHeader(Buffer.from("\r\n"))).toEqual({ state: "incomplete" });
  });

  it("when a version 2 header names a TCP client over IPv4 or IPv6, then that client is the source, TLVs skipped", () => {
    const tlvs = Buffer.concat([Buffer.from([0xea, 0x00, 0x0d, 0x01]), Buffer.from("vpce-0123abcd")]); // AWS's VPC endpoint id
    const v4 = proxyV2("203.0.113.7", 40123, { tlvs });
    expect(parseProxyHeader(Buffer.concat([v4, smtp]))).toEqual({
      state: "parsed",
      version: 2,
      length: v4.length,
      source: { address: "203.0.113.7", port: 40123 },
    });
    const v6 = proxyV2("2001:db8:0:0:1:0:0:7", 443);
    expect(parseProxyHeader(v6)).toEqual({
      state: "parsed",
      version: 2,
      length: v6.length,
      source: { address: "2001:db8::1:0:0:7", port: 443 },
    });
    const mapped = proxyV2("::ffff:cb00:7107", 1);
    expect(parseProxyHeader(mapped)).toMatchObject({ source: { address: "::ffff:203.0.113.7" } });
  });

  it("when a version 2 header is LOCAL, UNSPEC or from a unix socket, then it is read and names no source", () => {
    const local = proxyV2("203.0.113.7", 1, { local: true });
    expect(parseProxyHeader(local)).toEqual({ state: "parsed", version: 2, length: local.length, source: null });
    const unspec = Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, 0x00, 0x00, 0x00])]);
    expect(parseProxyHeader(unspec)).toEqual({ state: "parsed", version: 2, length: 16, source: null });
    const unix = Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, 0x31, 0x00, 216]), Buffer.alloc(216)]);
    expect(parseProxyHeader(unix)).toEqual({ state: "parsed", version: 2, length: 232, source: null });
  });

  it("when a version 2 header is of another version, command or transport, too short for its addresses or too long, then it is invalid", () => {
    const fixed = (verCmd: number, fam: number, len: number, body = Buffer.alloc(len)) =>
      Buffer.concat([V2_SIGNATURE, Buffer.from([verCmd, fam, len >> 8, len & 0xff]), body]);
    expect(parseProxyHeader(fixed(0x11, 0x11, 12))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/version 1/) });
    expect(parseProxyHeader(fixed(0x22, 0x11, 12))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/unknown command/) });
    expect(parseProxyHeader(fixed(0x21, 0x12, 12))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/transport/) });
    expect(parseProxyHeader(fixed(0x21, 0x22, 36))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/transport/) });
    expect(parseProxyHeader(fixed(0x21, 0x11, 8))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/too short/) });
    expect(parseProxyHeader(fixed(0x21, 0x21, 12))).toMatchObject({ state: "invalid", reason: expect.stringMatching(/too short/) });
    // a declared length past the cap is refused from the 16 fixed bytes, before its body is waited for
    const huge = V2_MAX_BYTES - 16 + 1;
    expect(parseProxyHeader(fixed(0x21, 0x11, huge, Buffer.alloc(0)))).toMatchObject({
      state: "invalid",
      reason: expect.stringMatching(/at most/),
    });
    expect(parseProxyHeader(fixed(0x21, 0x11, huge - 1, Buffer.alloc(0)))).toEqual({ state: "incomplete" });
  });
});

describe("trusted peers", () => {
  it("when entries are IPs or CIDR ranges, then they are accepted; anything else is named with its problem", () => {
    for (const ok of ["10.0.0.0/8", "10.1.2.3", "0.0.0.0/0", "fd00::/8", "2001:db8::1", "::/0", "192.168.1.0/32"])
      expect(cidrProblem(ok)).toBeNull();
    expect(cidrProblem("10.0.0.0/33")).toMatch(/0 to 32/);
    expect(cidrProblem("fd00::/129")).toMatch(/0 to 128/);
    expect(cidrProblem("10.0.0.0/")).toMatch(/prefix length/);
    expect(cidrProblem("10.0.0.0/8/8")).toMatch(/CIDR/);
    expect(cidrProblem("lb.example")).toMatch(/CIDR/);
    expect(cidrProblem("10.0.0.0/x")).toMatch(/prefix length/);
  });

  it("when a peer is in a range, then it is trusted, an IPv4 peer of a dual-stack listener too; others are not", () => {
    const list = trustedPeers(["10.0.0.0/8", "192.0.2.10", "fd00::/8"]);
    expect(isTrustedPeer(list, "10.200.3.4")).toBe(true);
    expect(isTrustedPeer(list, "::ffff:10.200.3.4")).toBe(true);
    expect(isTrustedPeer(list, "192.0.2.10")).toBe(true);
    expect(isTrustedPeer(list, "192.0.2.11")).toBe(false);
    expect(isTrustedPeer(list, "fd12::1")).toBe(true);
    expect(isTrustedPeer(list, "2001:db8::1")).toBe(false);
    expect(isTrustedPeer(list, "11.0.0.1")).toBe(false);
    expect(isTrustedPeer(list, undefined)).toBe(false);
    expect(isTrustedPeer(list, "")).toBe(false);
  });
});
