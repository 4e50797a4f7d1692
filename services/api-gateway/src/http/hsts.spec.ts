import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCidrs } from "./client-ip";
import { arrivedOverHttps, hstsValue, withHsts } from "./hsts";

const trusted = parseCidrs(["10.0.0.0/8"]);
const request = (peer: string, headers: Record<string, string> = {}, encrypted = false) =>
  ({ socket: { remoteAddress: peer, ...(encrypted ? { encrypted: true } : {}) }, headers }) as unknown as IncomingMessage;
const defaults = { enabled: true, max_age_seconds: 31_536_000, include_subdomains: true };

describe("arrivedOverHttps", () => {
  it("when a trusted proxy says https, then yes; http, or no header, then no", () => {
    expect(arrivedOverHttps(request("10.1.1.1", { "x-forwarded-proto": "https" }), trusted)).toBe(true);
    expect(arrivedOverHttps(request("::ffff:10.1.1.1", { "x-forwarded-proto": "HTTPS" }), trusted)).toBe(true);
    expect(arrivedOverHttps(request("10.1.1.1", { "x-forwarded-proto": "http" }), trusted)).toBe(false);
    expect(arrivedOverHttps(request("10.1.1.1"), trusted)).toBe(false);
  });

  it("when the claim comes from a peer that is not trusted, or no proxy is trusted, then it is not believed", () => {
    expect(arrivedOverHttps(request("203.0.113.5", { "x-forwarded-proto": "https" }), trusted)).toBe(false);
    expect(arrivedOverHttps(request("10.1.1.1", { "x-forwarded-proto": "https" }), [])).toBe(false);
  });

  it("when several values are listed, then the last (the trusted peer's own) decides", () => {
    expect(arrivedOverHttps(request("10.1.1.1", { "x-forwarded-proto": "http, https" }), trusted)).toBe(true);
    expect(arrivedOverHttps(request("10.1.1.1", { "x-forwarded-proto": "https, http" }), trusted)).toBe(false);
  });

  it("when the socket is TLS, then yes, whoever the peer", () => {
    expect(arrivedOverHttps(request("203.0.113.5", {}, true), [])).toBe(true);
  });
});

describe("the header", () => {
  it("is max-age one year with includeSubDomains by default; the settings change or remove it", () => {
    expect(hstsValue(defaults)).toBe("max-age=31536000; includeSubDomains");
    expect(hstsValue({ ...defaults, max_age_seconds: 300, include_subdomains: false })).toBe("max-age=300");
    expect(hstsValue({ ...defaults, enabled: false })).toBeUndefined();
  });

  it("is set on the answer to an https request only, before the listener runs; off, the listener is unchanged", () => {
    const seen: Array<string | undefined> = [];
    const listener = (_req: IncomingMessage, res: ServerResponse) =>
      seen.push(res.getHeader("strict-transport-security") as string | undefined);
    const response = () => {
      const headers = new Map<string, string>();
      return {
        setHeader: (k: string, v: string) => headers.set(k.toLowerCase(), v),
        getHeader: (k: string) => headers.get(k.toLowerCase()),
      } as unknown as ServerResponse;
    };
    const wrapped = withHsts(listener, defaults, trusted);
    wrapped(request("10.1.1.1", { "x-forwarded-proto": "https" }), response());
    wrapped(request("10.1.1.1"), response());
    expect(seen).toEqual(["max-age=31536000; includeSubDomains", undefined]);
    expect(withHsts(listener, { ...defaults, enabled: false }, trusted)).toBe(listener);
  });
});
