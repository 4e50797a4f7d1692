import { isLoopbackHost, readSettings, UsageError } from "./config.js";

const env = { BURNBOX_URL: "http://127.0.0.1:8080", BURNBOX_API_KEY: "bb_key" };

describe("settings", () => {
  it("is stdio without --http, HTTP on 127.0.0.1 with it unless --host says otherwise", () => {
    expect(readSettings([], env)).toEqual({ baseUrl: env.BURNBOX_URL, apiKey: "bb_key" });
    expect(readSettings(["--http", "3920"], env).http).toEqual({ port: 3920, host: "127.0.0.1" });
    expect(readSettings(["--http", "0", "--host", "127.0.0.2"], env).http).toEqual({ port: 0, host: "127.0.0.2" });
  });

  it("beyond loopback only with BURNBOX_MCP_TOKEN; on loopback a token is optional, and taken when given", () => {
    const token = "t".repeat(32);
    expect(() => readSettings(["--http", "0", "--host", "0.0.0.0"], env)).toThrow(/listens beyond loopback.*BURNBOX_MCP_TOKEN/);
    expect(() => readSettings(["--http", "0", "--host", "::"], env)).toThrow(UsageError);
    expect(readSettings(["--http", "0", "--host", "0.0.0.0"], { ...env, BURNBOX_MCP_TOKEN: token }).http).toEqual({
      port: 0,
      host: "0.0.0.0",
      token,
    });
    expect(readSettings(["--http", "3920"], { ...env, BURNBOX_MCP_TOKEN: token }).http).toEqual({ port: 3920, host: "127.0.0.1", token });
    expect(() => readSettings(["--http", "0"], { ...env, BURNBOX_MCP_TOKEN: "short" })).toThrow("at least 16 characters");
    // stdio has no listener to protect
    expect(readSettings([], { ...env, BURNBOX_MCP_TOKEN: "short" })).toEqual({ baseUrl: env.BURNBOX_URL, apiKey: "bb_key" });
  });

  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.5", false],
    ["example.com", false],
    ["128.0.0.1", false],
  ])("isLoopbackHost(%s) is %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it.each([
    [["--http"], env, "--http needs a value"],
    [["--http", "70000"], env, "not a port"],
    [["--http", "abc"], env, "not a port"],
    [["--stdio"], env, "unknown argument"],
    [[], { BURNBOX_API_KEY: "bb_key" }, "BURNBOX_URL is not set"],
    [[], { ...env, BURNBOX_URL: "burnbox.example.com" }, "must start with http"],
    [[], { BURNBOX_URL: env.BURNBOX_URL }, "BURNBOX_API_KEY is not set"],
    [[], { ...env, BURNBOX_API_KEY: "eyJhbGciOi" }, "team API key"],
  ])("refuses %j with %j: %s", (args, e, message) => {
    expect(() => readSettings(args, e)).toThrow(UsageError);
    expect(() => readSettings(args, e)).toThrow(message);
  });
});
