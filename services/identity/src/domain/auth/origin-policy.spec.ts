import { allowedOrigins, originRefusal, type OriginSettings } from "./origin-policy";

const config = (base_url: string, mode: "development" | "production" = "development", allowed: string[] = []): OriginSettings => ({
  base_url,
  cors: { allowed_origins: allowed },
  deployment: { mode },
});

describe("the origins a cookie-mode request may come from", () => {
  it("when the base URL is localhost in local mode, then every loopback spelling of it with the same port is allowed", () => {
    const c = config("http://localhost:8080");
    for (const o of ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"]) expect(originRefusal(c, o)).toBeNull();
  });

  it("when the base URL is 127.0.0.1, then localhost is allowed too", () => {
    expect(originRefusal(config("http://127.0.0.1:8080"), "http://localhost:8080")).toBeNull();
  });

  it("when a loopback origin has another port or scheme, then it is refused", () => {
    const c = config("http://localhost:8080");
    expect(originRefusal(c, "http://127.0.0.1:8081")).not.toBeNull();
    expect(originRefusal(c, "https://127.0.0.1:8080")).not.toBeNull();
  });

  it("when the base URL is a public name, then only it and the configured origins are allowed", () => {
    const c = config("https://burnbox.example.com", "production", ["https://app.example.com/"]);
    expect([...allowedOrigins(c)].sort()).toEqual(["https://app.example.com", "https://burnbox.example.com"]);
    expect(originRefusal(c, "http://127.0.0.1:8080")).not.toBeNull();
  });

  it("when an origin is refused, then the message names it, the origin expected and the settings to change", () => {
    const why = originRefusal(config("https://burnbox.example.com", "production"), "https://evil.example");
    expect(why).toContain("origin https://evil.example is not allowed");
    expect(why).toContain("expects https://burnbox.example.com");
    expect(why).toContain("BB_BASE_URL");
    expect(why).toContain("BB_CORS_ALLOWED_ORIGINS");
  });

  it("when the request names no origin, then nothing is refused (not a browser's request)", () => {
    expect(originRefusal(config("https://burnbox.example.com", "production"), undefined)).toBeNull();
  });
});
