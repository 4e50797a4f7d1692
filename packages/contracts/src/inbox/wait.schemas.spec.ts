import { parseWaitTimeoutMs, WaitForEmailsQuery } from "./wait.schemas";

const EMAIL_ID = "0193a0c4-7b1e-7c3d-9a2f-1b2c3d4e5f60";

describe("the wait's timeout", () => {
  it.each([
    ["0", 0],
    ["500ms", 500],
    ["10s", 10_000],
    ["2m", 120_000],
    ["1m30s", 90_000],
    ["120s", 120_000],
  ])("when timeout is %s, then it waits %i ms", (input, ms) => {
    expect(parseWaitTimeoutMs(input)).toBe(ms);
  });

  it.each([["121s"], ["3m"], ["1h"], ["10"], ["-1s"], ["1.5s"], [""], ["soon"]])("when timeout is %s, then it is refused", (input) => {
    expect(() => parseWaitTimeoutMs(input)).toThrow();
  });
});

describe("WaitForEmailsQuery", () => {
  it("when nothing is given, then count is 1, timeout 30 s, no header, read mail counts", () => {
    expect(WaitForEmailsQuery.parse({})).toEqual({ header: [], unread: false, count: 1, timeout: 30_000 });
  });

  it("when every field is given, then each is parsed", () => {
    const q = WaitForEmailsQuery.parse({
      from: "noreply@acme.test",
      to: "Alice",
      subject: "Verify",
      body: "code",
      subject_re: "^Your (code|link)",
      body_re: "\\d{6}",
      header: ["X-Test-Run: 42", "x-env:  staging  "],
      since: "2026-11-27T10:00:00Z",
      unread: "true",
      count: "100",
      timeout: "500ms",
    });
    expect(q).toEqual({
      from: "noreply@acme.test",
      to: "Alice",
      subject: "Verify",
      body: "code",
      subject_re: "^Your (code|link)",
      body_re: "\\d{6}",
      header: [
        { name: "x-test-run", value: "42" },
        { name: "x-env", value: "staging" },
      ],
      since: { kind: "time", at: new Date("2026-11-27T10:00:00Z") },
      unread: true,
      count: 100,
      timeout: 500,
    });
  });

  it("when since is an email id, then it is that email, lower case", () => {
    expect(WaitForEmailsQuery.parse({ since: EMAIL_ID.toUpperCase() }).since).toEqual({ kind: "email", id: EMAIL_ID });
  });

  it("when since has an offset, then it is that instant", () => {
    expect(WaitForEmailsQuery.parse({ since: "2026-11-27T11:00:00.250+01:00" }).since).toEqual({
      kind: "time",
      at: new Date("2026-11-27T10:00:00.250Z"),
    });
  });

  it("when a single header is given, then it is a list of one", () => {
    expect(WaitForEmailsQuery.parse({ header: "X-Test-Run: a:b" }).header).toEqual([{ name: "x-test-run", value: "a:b" }]);
  });

  it.each([
    ["count 0", { count: "0" }],
    ["count 101", { count: "101" }],
    ["count 1.5", { count: "1.5" }],
    ["count twice", { count: ["1", "2"] }],
    ["timeout above 120 s", { timeout: "121s" }],
    ["timeout without a unit", { timeout: "30" }],
    ["since neither a time nor an id", { since: "yesterday" }],
    ["since a date without a time", { since: "2026-11-27" }],
    ["since a time without an offset", { since: "2026-11-27T10:00:00" }],
    ["an unknown field", { form: "x@acme.test" }],
    ["a header without a colon", { header: "X-Test-Run 42" }],
    ["a header without a name", { header: ": 42" }],
    ["a header name with a space", { header: "X Test: 42" }],
    ["21 headers", { header: Array.from({ length: 21 }, (_, i) => `X-${i}: v`) }],
    ["a pattern of 257 characters", { subject_re: "a".repeat(257) }],
    ["an empty substring", { from: "" }],
    ["unread yes", { unread: "yes" }],
  ])("when the query has %s, then it is refused", (_what, query) => {
    expect(WaitForEmailsQuery.safeParse(query).success).toBe(false);
  });

  it("when a pattern has exactly 256 characters, then it is accepted", () => {
    expect(WaitForEmailsQuery.safeParse({ body_re: "a".repeat(256) }).success).toBe(true);
  });
});
