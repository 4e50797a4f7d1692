import { WAIT_LIMITS } from "@burnbox/contracts";
import { RE2JS } from "re2js";
import { matcherFor, type WaitMatchQuery } from "./wait-matcher";
import { countedRepetitionTotal } from "./pattern-bounds";
import { matchedBody } from "./wait-candidate";

const query = (over: Partial<WaitMatchQuery>): WaitMatchQuery => ({ header: [], unread: false, after: null, ...over });

describe("countedRepetitionTotal", () => {
  it.each([
    ["no count", "(?i)verify your (email|account)", 1],
    ["one count", "\\d{6}", 6],
    ["a range counts its upper end", "[a-z]{2,40}", 40],
    ["an open range counts its lower end", "x{7,}", 7],
    ["nested counts multiply", "(a{100}){100}", 10_000],
    ["through groups of any kind", "(?:(?P<w>\\w+\\s?){10}-){20}$", 200],
    ["counts side by side do not multiply", "a{30}b{40}(c{5}){2}", 40],
    ["the issue's pattern", "(\\w+\\s?){1000}$", 1000],
    ["an escaped brace is a literal", "\\{1000\\}", 1],
    ["a brace in a class is a literal", "[{1000}]+", 1],
    ["a class opening with ] and holding [:alpha:]", "[]a[:alpha:]{]{3}", 3],
    ["a \\Q…\\E run is literal", "\\Q(a{500})\\E{2}", 2],
    ["a brace that opens no count is a literal", "a{,5}b{x}", 1],
    ["\\p{…} classes are one atom", "\\p{Greek}{12}\\pL{3}", 12],
  ])("%s: %s counts %d", (_what, pattern, total) => {
    expect(countedRepetitionTotal(pattern)).toBe(total);
  });
});

describe("a wait's pattern bounds", () => {
  it("when counted repetition passes the bound, then it is a 400 that says so, whichever field", () => {
    expect(() => matcherFor(query({ body_re: "(\\w+\\s?){1000}$" }))).toThrow(
      `body_re: counted repetition too large (at most ${WAIT_LIMITS.patternMaxRepeat})`,
    );
    expect(() => matcherFor(query({ subject_re: "(a{11}){10}" }))).toThrow(/^subject_re: counted repetition too large/);
    expect(() => matcherFor(query({ body_re: "(a{10}){10}" }))).not.toThrow();
  });

  it("when the compiled program passes the bound, then it is a 400 naming the bound and the size", () => {
    const pattern = "(\\w+\\s?){60}(\\w+\\s?){60}";
    const size = RE2JS.compile(pattern).programSize();
    expect(size).toBeGreaterThan(WAIT_LIMITS.patternMaxProgram);
    expect(() => matcherFor(query({ body_re: pattern }))).toThrow(
      `body_re: pattern too complex (at most ${WAIT_LIMITS.patternMaxProgram} instructions, this one compiles to ${size})`,
    );
  });

  it("when a pattern is within both bounds, then matching a 64 KiB body costs tens of ms at most", () => {
    // about the costliest kind: every instruction live on text with a space now and then
    let x = 7;
    const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    const body = Array.from({ length: WAIT_LIMITS.bodyMatchMaxChars }, () =>
      next() < 0.1 ? " " : "abcdefgh"[Math.floor(next() * 8)],
    ).join("");
    const match = matcherFor(query({ body_re: "(\\w+\\s?){45}$" }));
    const candidate = {
      id: "e",
      receivedAt: new Date(),
      isRead: false,
      from: [],
      recipients: [],
      subject: "",
      headers: {},
      bodyText: body,
    };
    match(candidate); // the JIT warmed
    // CPU time, not wall time: a loaded machine's waits for a core are not the pattern's cost
    const started = process.cpuUsage();
    match({ ...candidate, bodyText: `${body.slice(1)}a` });
    const cpu = process.cpuUsage(started);
    // tens of ms; the pattern took 21.6 s on 100 KB
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(150);
  });
});

describe("matchedBody (what body and body_re read)", () => {
  const max = WAIT_LIMITS.bodyMatchMaxChars;

  it("when the text part is longer than 64 KiB, then only its first 64 Ki characters are read", () => {
    const text = `${"a".repeat(max - 3)}end-beyond`;
    expect(matchedBody(text, null)).toBe(`${"a".repeat(max - 3)}end`);
    expect(matcherFor(query({ body: "beyond" }))({ ...blank, bodyText: matchedBody(text, null) })).toBe(false);
    expect(matcherFor(query({ body: "aend" }))({ ...blank, bodyText: matchedBody(text, null) })).toBe(true);
  });

  it("when only HTML is stored, then the first 64 Ki characters of its visible text are read", () => {
    const html = `<p>${"b".repeat(max)}</p><p>hidden-tail</p>`;
    const body = matchedBody(null, html);
    expect(body).toHaveLength(max);
    expect(body).not.toContain("hidden-tail");
    expect(matchedBody("", "<p>Click <a href='https://x.test/secret'>here</a></p>")).toBe("Click here");
  });

  const blank = { id: "e", receivedAt: new Date(), isRead: false, from: [], recipients: [], subject: "", headers: {}, bodyText: "" };
});
