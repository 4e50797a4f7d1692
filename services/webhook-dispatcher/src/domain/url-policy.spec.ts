import { addressProblem, parseAllowlist, webhookUrlProblem } from "./url-policy";

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
  ])("refuses %s", (url) => {
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
