import { readSettings, UsageError } from "./config.js";

const env = { BURNBOX_URL: "http://127.0.0.1:8080", BURNBOX_API_KEY: "bb_key" };

describe("settings", () => {
  it("is stdio without --http, HTTP on 127.0.0.1 with it unless --host says otherwise", () => {
    expect(readSettings([], env)).toEqual({ baseUrl: env.BURNBOX_URL, apiKey: "bb_key" });
    expect(readSettings(["--http", "3920"], env).http).toEqual({ port: 3920, host: "127.0.0.1" });
    expect(readSettings(["--http", "0", "--host", "0.0.0.0"], env).http).toEqual({ port: 0, host: "0.0.0.0" });
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
