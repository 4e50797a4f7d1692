import { cacheControlOf, chooseEncoding, consolePathKind, CONSOLE_CONTENT_SECURITY_POLICY } from "./console-policy";

describe("how the console is served", () => {
  const reserved = ["/healthz", "/readyz", "/metrics"];

  it.each([
    ["/", "page"],
    ["/login", "page"],
    ["/invites/abc", "page"],
    ["/apidocs", "page"],
    ["/healthzz", "page"],
    ["/assets/index-1a2b3c4d.js", "file-only"],
    ["/api", "none"],
    ["/api/v1/inboxes", "none"],
    ["/api/v2/x", "none"],
    ["/healthz", "none"],
    ["/readyz", "none"],
    ["/metrics", "none"],
  ])("when the path is %s, then it is %s", (p, kind) => {
    expect(consolePathKind(p, reserved)).toBe(kind);
  });

  it("when a file is hashed build output, then it is immutable; anything else is revalidated", () => {
    expect(cacheControlOf("/assets/index-1a2b3c4d.js")).toBe("public, max-age=31536000, immutable");
    expect(cacheControlOf("/index.html")).toBe("no-cache");
    expect(cacheControlOf("/favicon.svg")).toBe("no-cache");
  });

  it.each([
    ["gzip, deflate, br", ["br", "gzip"], "br"],
    ["gzip", ["br", "gzip"], "gzip"],
    ["br;q=0, gzip", ["br", "gzip"], "gzip"],
    ["*", ["br", "gzip"], "br"],
    ["identity", ["br", "gzip"], undefined],
    [undefined, ["br", "gzip"], undefined],
    ["br", [], undefined],
    ["br, gzip;q=0.5", ["gzip"], "gzip"],
  ] as const)("when the client accepts %p and %p exist, then %p is sent", (accept, available, chosen) => {
    expect(chooseEncoding(accept, available)).toBe(chosen);
  });

  it("when the policy is read, then scripts come only from the origin", () => {
    const script = CONSOLE_CONTENT_SECURITY_POLICY.split("; ").find((d) => d.startsWith("script-src"));
    expect(script).toBe("script-src 'self'");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });
});
