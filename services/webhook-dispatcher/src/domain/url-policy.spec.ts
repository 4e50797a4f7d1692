import { addressProblem, parseAllowlist } from "@burnbox/service-kit/security";
import { webhookUrlProblem } from "./url-policy";

describe("webhook URL rules at create and update", () => {
  it.each([
    "http://localhost/hook",
    "http://LOCALHOST/hook",
    "http://localhost./hook",
    "http://api.localhost/hook",
    "http://127.0.0.1/hook",
    "http://127.1/hook",
    "http://127.0.1/hook",
    "http://2130706433/hook",
    "http://0x7f000001/hook",
    "http://0x7f.0.0.1/hook",
    "http://0177.0.0.1/hook",
    "http://017700000001/hook",
    "http://127.255.255.254/hook",
    "http://0.0.0.0/hook",
    "http://0/hook",
    "http://[::1]/hook",
    "http://[0:0:0:0:0:0:0:1]/hook",
    "http://[::]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[::ffff:10.0.0.1]/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://169.254.169.254./latest",
    "http://0xA9FEA9FE/latest",
    "http://2852039166/latest",
    "http://[fe80::1]/hook",
    "http://[fd00::1]/hook",
    "http://[fc00::abcd]/hook",
    "http://10.0.0.5/hook",
    "http://10.1/hook",
    "http://172.16.0.1/hook",
    "http://172.31.255.255/hook",
    "http://192.168.1.1/hook",
    "http://metadata.google.internal/computeMetadata",
    "http://service.INTERNAL/hook",
    "http://printer.local/hook",
    "http://printer.local./hook",
    "http://intranet/hook",
    "ftp://example.com/hook",
    "file:///etc/passwd",
    "gopher://example.com/",
    "javascript:alert(1)",
    "not a url",
    "http://user:pass@example.com/hook",
    "http://[fec0::1]/hook",
    "http://[feff:ffff::1]/hook",
    "http://[5f00::1]/hook",
    "http://[5f00:abcd::1]/hook",
    "https://hooks.example.com/a\nb",
    "https://hooks.exam\nple.com/hook",
    "https://hooks.example.com/hook\r",
    "https://hooks.example.com/\u0000",
    "https://hooks.example.com/\u001f",
    "https://hooks.example.com/\u007f",
    "\thttps://hooks.example.com/hook",
  ])("refuses %j", (url) => {
    expect(webhookUrlProblem(url)).not.toBeNull();
  });

  it.each([
    "https://hooks.example.com/burnbox",
    "http://93.184.216.34:8080/hook",
    "https://[2001:4860:4860::8888]/hook",
    "https://Example.COM./x",
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });

  it("exempts only what the operator lists in unsafe_allowed_targets", () => {
    const allowed = parseAllowlist(["127.0.0.1", "localhost", "10.1.0.0/16"]);
    expect(webhookUrlProblem("http://127.0.0.1:9000/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://localhost:9000/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://10.1.2.3/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://10.2.0.1/hook", allowed)).not.toBeNull();
    expect(webhookUrlProblem("http://[::1]/hook", allowed)).not.toBeNull();
  });
});

describe("IPv6 ranges that embed or translate an IPv4 address (issue 10, item 5)", () => {
  const spellings = [
    ["IPv4-compatible", "http://[::127.0.0.1]/", "::7f00:1"],
    ["NAT64", "http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1"],
    ["6to4", "http://[2002:7f00:1::1]/", "2002:7f00:1::1"],
    ["SIIT", "http://[::ffff:0:7f00:1]/", "::ffff:0:7f00:1"],
    ["discard-only", "http://[100::1]/", "100::1"],
    ["Teredo", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["local-use NAT64", "http://[64:ff9b:1::a00:1]/", "64:ff9b:1::a00:1"],
  ] as const;

  it.each(spellings)("when the URL host is %s (%s), then create and update refuse it", (_range, url) => {
    expect(webhookUrlProblem(url)).toBe("url host is not allowed: internal or reserved address");
  });

  it.each(spellings)("when a name resolves into the %s range (%s), then dispatch refuses the address", (range, _url, ip) => {
    expect(addressProblem(ip)).toContain(range);
  });

  it("when the address is an ordinary public IPv6 one, then it is still accepted at create and at dispatch", () => {
    expect(webhookUrlProblem("http://[2606:4700:4700::1111]/")).toBeNull();
    expect(addressProblem("2606:4700:4700::1111")).toBeNull();
  });

  it("when the operator lists such a range in unsafe_allowed_targets, then it is exempt", () => {
    const allowed = parseAllowlist(["64:ff9b::/96"]);
    expect(webhookUrlProblem("http://[64:ff9b::7f00:1]/", allowed)).toBeNull();
    expect(addressProblem("2002:7f00:1::1", allowed)).not.toBeNull();
  });
});

describe("resolved addresses at dispatch", () => {
  it.each([
    "127.0.0.1",
    "10.9.8.7",
    "172.20.0.1",
    "192.168.0.10",
    "169.254.10.10",
    "::1",
    "fe80::2",
    "fd12::1",
    "0.0.0.0",
    "::",
    "::ffff:192.168.0.1",
  ])("refuses %s", (ip) => {
    expect(addressProblem(ip)).not.toBeNull();
  });
  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "172.32.0.1"])("allows %s", (ip) => {
    expect(addressProblem(ip)).toBeNull();
  });
});
