import { AppError } from "@burnbox/service-kit/runtime";
import { afterEmail, afterTime, isAfter, matcherFor, type WaitCandidate, type WaitMatchQuery } from "./wait-matcher";
import { waitCandidateOf } from "./wait-candidate";

const T0 = new Date("2026-11-27T10:00:00.000Z");
const ID_A = "0193a0c4-7b1e-7c3d-9a2f-00000000000a";
const ID_B = "0193a0c4-7b1e-7c3d-9a2f-00000000000b";

const email = (over: Partial<WaitCandidate> = {}): WaitCandidate => ({
  id: ID_A,
  receivedAt: T0,
  isRead: false,
  from: [{ address: "noreply@acme.test", name: "Acme Accounts" }],
  recipients: [
    { address: "alice@inbox.test", name: "Alice Example" },
    { address: "qa-team@inbox.test", name: "" },
  ],
  subject: "Verify your Acme account",
  bodyText: "Your verification code is 482913.",
  headers: { "x-test-run": "run-42", "x-env": ["staging", "eu"] },
  ...over,
});

const query = (over: Partial<WaitMatchQuery> = {}): WaitMatchQuery => ({ header: [], unread: false, after: null, ...over });
const matches = (q: Partial<WaitMatchQuery>, e: WaitCandidate = email()) => matcherFor(query(q))(e);

describe("matcherFor", () => {
  it("when no matcher is given, then every email matches", () => {
    expect(matches({})).toBe(true);
  });

  it.each([
    ["from: part of the address", { from: "NOREPLY@acme" }, true],
    ["from: part of the name", { from: "acme acc" }, true],
    ["from: neither", { from: "billing" }, false],
    ["to: a To address", { to: "alice@" }, true],
    ["to: a Cc address", { to: "qa-team" }, true],
    ["to: a name", { to: "alice example" }, true],
    ["to: neither", { to: "bob" }, false],
    ["subject: a substring in another case", { subject: "ACME ACC" }, true],
    ["subject: absent", { subject: "reset" }, false],
    ["body: a substring", { body: "CODE IS 4829" }, true],
    ["body: absent", { body: "password" }, false],
  ])("when %s, then it answers %s", (_what, q, expected) => {
    expect(matches(q as Partial<WaitMatchQuery>)).toBe(expected);
  });

  it("when body is given, then the HTML's tags and link URLs are not matched, its visible text is", () => {
    const stored = {
      id: ID_A,
      receivedAt: T0,
      isRead: false,
      fromAddress: "noreply@acme.test",
      subject: "Hi",
      bodyText: null,
      bodyHtml: '<p>Click <a href="https://acme.test/secret-path">here</a></p>',
      headers: { from: "Acme <noreply@acme.test>", to: "=?UTF-8?B?SsO8cmdlbg==?= <j@inbox.test>", cc: "Team: qa@inbox.test;" },
    };
    const candidate = waitCandidateOf(stored);
    expect(matcherFor(query({ body: "click here" }))(candidate)).toBe(true);
    expect(matcherFor(query({ body: "secret-path" }))(candidate)).toBe(false);
    expect(matcherFor(query({ body: "<p>" }))(candidate)).toBe(false);
    expect(matcherFor(query({ to: "jürgen" }))(candidate)).toBe(true);
    expect(matcherFor(query({ to: "qa@inbox" }))(candidate)).toBe(true);
    expect(matcherFor(query({ from: "acme" }))(candidate)).toBe(true);
  });

  it("when a stored email has no From header, then its from_address is matched", () => {
    const candidate = waitCandidateOf({
      id: ID_A,
      receivedAt: T0,
      isRead: false,
      fromAddress: "bounce@acme.test",
      subject: "",
      bodyText: "text",
      bodyHtml: null,
      headers: {},
    });
    expect(matcherFor(query({ from: "bounce@" }))(candidate)).toBe(true);
  });

  it.each([
    ["subject_re matches", { subject_re: "^Verify .* account$" }, true],
    ["subject_re is case-sensitive by default", { subject_re: "^verify" }, false],
    ["subject_re with (?i)", { subject_re: "(?i)^verify" }, true],
    ["body_re finds a part", { body_re: "\\b\\d{6}\\b" }, true],
    ["body_re misses", { body_re: "reset" }, false],
  ])("when %s, then it answers %s", (_what, q, expected) => {
    expect(matches(q)).toBe(expected);
  });

  it.each([
    ["a header with exactly that value", [{ name: "x-test-run", value: "run-42" }], true],
    ["a header with another value", [{ name: "x-test-run", value: "run-4" }], false],
    ["a repeated header, one value holds", [{ name: "x-env", value: "eu" }], true],
    [
      "two headers, both hold",
      [
        { name: "x-test-run", value: "run-42" },
        { name: "x-env", value: "staging" },
      ],
      true,
    ],
    [
      "two headers, one fails",
      [
        { name: "x-test-run", value: "run-42" },
        { name: "x-env", value: "prod" },
      ],
      false,
    ],
    ["a header the email lacks", [{ name: "x-missing", value: "" }], false],
  ])("when %s is required, then it answers %s", (_what, header, expected) => {
    expect(matches({ header })).toBe(expected);
  });

  it("when a stored header value carries spaces around it, then the trimmed value matches", () => {
    expect(matches({ header: [{ name: "x-test-run", value: "run-42" }] }, email({ headers: { "X-Test-Run": "  run-42 " } }))).toBe(true);
  });

  it("when unread is asked, then a read email does not match and an unread one does", () => {
    expect(matches({ unread: true }, email({ isRead: true }))).toBe(false);
    expect(matches({ unread: true }, email({ isRead: false }))).toBe(true);
    expect(matches({ unread: false }, email({ isRead: true }))).toBe(true);
  });

  it.each(["(a", "a{2,1}", "(?=lookahead)", "\\1", "[z-a]"])(
    "when a pattern is %s, then it is a validation error naming the field",
    (pattern) => {
      expect(() => matcherFor(query({ body_re: pattern }))).toThrow(AppError);
      expect(() => matcherFor(query({ body_re: pattern }))).toThrow(/body_re: not a valid RE2 expression/);
    },
  );

  it("when a pattern passes 256 characters, then it is a validation error", () => {
    expect(() => matcherFor(query({ subject_re: "a".repeat(257) }))).toThrow(/subject_re must be at most 256 characters/);
  });

  it("when a catastrophic-backtracking pattern meets a 50,000-character body, then it answers in well under 100 ms", () => {
    const match = matcherFor(query({ body_re: "(a+)+$" }));
    const body = `${"a".repeat(50_000)}!`;
    const started = performance.now();
    expect(match(email({ bodyText: body }))).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("since", () => {
  it("when since is a time, then only emails received after it count", () => {
    const after = afterTime(T0);
    expect(isAfter(after, { receivedAt: new Date(T0.getTime() + 1), id: ID_A })).toBe(true);
    expect(isAfter(after, { receivedAt: T0, id: ID_B })).toBe(false);
    expect(matches({ after }, email({ receivedAt: new Date(T0.getTime() - 1) }))).toBe(false);
  });

  it("when since is an email, then later emails and same-millisecond emails with a greater id count, itself not", () => {
    const after = afterEmail({ receivedAt: T0, id: ID_A.toUpperCase() });
    expect(after).toEqual({ receivedAt: T0, id: ID_A });
    expect(isAfter(after, { receivedAt: T0, id: ID_A })).toBe(false);
    expect(isAfter(after, { receivedAt: T0, id: ID_B })).toBe(true);
    expect(isAfter(after, { receivedAt: new Date(T0.getTime() + 1), id: "00000000-0000-0000-0000-000000000000" })).toBe(true);
    expect(isAfter(after, { receivedAt: new Date(T0.getTime() - 1), id: "ffffffff-ffff-ffff-ffff-ffffffffffff" })).toBe(false);
    expect(matches({ after }, email({ id: ID_B }))).toBe(true);
  });
});

describe("matcherFor: spam_max (extensions section 9)", () => {
  it.each([
    ["a score below it", 1.5, 5, true],
    ["a score equal to it", 5, 5, true],
    ["a score above it", 15, 5, false],
    ["a negative score under a zero bound", -0.1, 0, true],
    ["an unscored email", null, 100, false],
  ])("when the email has %s, then it matches only at or below spam_max", (_what, spamScore, spamMax, expected) => {
    expect(matches({ spam_max: spamMax }, email({ spamScore }))).toBe(expected);
  });

  it("when spam_max is not given, then an unscored email matches", () => {
    expect(matches({}, email({ spamScore: null }))).toBe(true);
  });
});
