import { AppError } from "@burnbox/service-kit/runtime";
import { MAX_TERMS, parseEmailSearch } from "./email-search";

const terms = (q: string) => parseEmailSearch(q)?.terms;

/** The error a query is refused with (fails when it is accepted). */
function refusal(q: string): AppError {
  try {
    parseEmailSearch(q);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`"${q}" was accepted`);
}

describe("parseEmailSearch", () => {
  it("when q is absent or blank, then there is nothing to search", () => {
    expect(parseEmailSearch(undefined)).toBeNull();
    expect(parseEmailSearch("")).toBeNull();
    expect(parseEmailSearch("  \t ")).toBeNull();
  });

  it("when q holds free words, then each is a text term that must hold", () => {
    expect(terms("invoice  march")).toEqual([
      { kind: "text", value: "invoice", negated: false },
      { kind: "text", value: "march", negated: false },
    ]);
  });

  it("when a phrase is quoted, then it is one text term, spaces and colons included", () => {
    expect(terms('"Re: your order" x')).toEqual([
      { kind: "text", value: "Re: your order", negated: false },
      { kind: "text", value: "x", negated: false },
    ]);
  });

  it("when from:, to: or subject: is given, then that field is matched, bare or quoted", () => {
    expect(terms('from:alice@example.org to:qa subject:"weekly report"')).toEqual([
      { kind: "from", value: "alice@example.org", negated: false },
      { kind: "to", value: "qa", negated: false },
      { kind: "subject", value: "weekly report", negated: false },
    ]);
  });

  it("when an operator is written in capitals, then it is still read", () => {
    expect(terms("FROM:bob Is:Unread HAS:Attachment")).toEqual([
      { kind: "from", value: "bob", negated: false },
      { kind: "read", read: false },
      { kind: "has_attachment", negated: false },
    ]);
  });

  it("when a term starts with -, then it is negated", () => {
    expect(terms('-from:noreply -"out of office" -spam -has:attachment')).toEqual([
      { kind: "from", value: "noreply", negated: true },
      { kind: "text", value: "out of office", negated: true },
      { kind: "text", value: "spam", negated: true },
      { kind: "has_attachment", negated: true },
    ]);
  });

  it("when is:read or is:unread is given (or negated), then the read flag is asked for", () => {
    expect(terms("is:read")).toEqual([{ kind: "read", read: true }]);
    expect(terms("is:unread")).toEqual([{ kind: "read", read: false }]);
    expect(terms("-is:read")).toEqual([{ kind: "read", read: false }]);
    expect(terms("-is:unread")).toEqual([{ kind: "read", read: true }]);
  });

  it("when before: or after: takes a date, then it is midnight UTC of that day", () => {
    expect(terms("after:2026-01-02 before:2026-02-01")).toEqual([
      { kind: "received", before: false, at: new Date("2026-01-02T00:00:00.000Z") },
      { kind: "received", before: true, at: new Date("2026-02-01T00:00:00.000Z") },
    ]);
  });

  it("when before: or after: takes an ISO time with an offset, then that instant", () => {
    expect(terms("after:2026-01-02T10:30:00+02:00")).toEqual([
      { kind: "received", before: false, at: new Date("2026-01-02T08:30:00.000Z") },
    ]);
  });

  it("when a date term is negated, then it turns into the other side", () => {
    expect(terms("-before:2026-01-02 -after:2026-03-01")).toEqual([
      { kind: "received", before: false, at: new Date("2026-01-02T00:00:00.000Z") },
      { kind: "received", before: true, at: new Date("2026-03-01T00:00:00.000Z") },
    ]);
  });

  it("when a word holds a minus inside, then it is a plain word (only a leading minus negates)", () => {
    expect(terms("e-mail x-ray")).toEqual([
      { kind: "text", value: "e-mail", negated: false },
      { kind: "text", value: "x-ray", negated: false },
    ]);
  });

  it("when a value holds a colon after the operator, then the rest is the value", () => {
    expect(terms("subject:re:hello")).toEqual([{ kind: "subject", value: "re:hello", negated: false }]);
  });

  describe("refusals (400 naming the term)", () => {
    it.each([
      ['"open phrase', '"open phrase', "unterminated quote"],
      ['subject:"open', 'subject:"open', "unterminated quote"],
      ["from:", "from:", '"from:" needs a value'],
      ['to:""', 'to:""', '"to:" needs a value'],
      ["x -", "-", "nothing to negate"],
      ['""', '""', "empty phrase"],
      ["color:red", "color:red", 'unknown operator "color:"'],
      ["https://example.org", "https://example.org", 'unknown operator "https:"'],
      ["has:pdf", "has:pdf", 'expected "has:attachment"'],
      ["is:starred", "is:starred", 'expected "is:read" or "is:unread"'],
      ["before:yesterday", "before:yesterday", "expected a date"],
      ["after:2026-02-30", "after:2026-02-30", "expected a date"],
      ["after:2026-1-2", "after:2026-1-2", "expected a date"],
      ["before:2026-01-02T10:00", "before:2026-01-02T10:00", "expected a date"],
      ['"a"b c', '"a"b', "a closing quote must end the term"],
    ])("when q is %s, then it is refused naming %s", (q, token, why) => {
      const err = refusal(q);
      expect(err.status).toBe(400);
      expect(err.wireCode).toBe("validation_error");
      expect(err.message).toContain(`"${token}"`);
      expect(err.message).toContain(why);
      expect(err.extra.details).toEqual([{ path: "q", message: expect.stringContaining(token) as unknown }]);
    });

    it("when q holds more terms than allowed, then the first one over is named", () => {
      const words = Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`);
      expect(refusal(words.join(" ")).message).toContain(`"w${MAX_TERMS}"`);
      expect(terms(words.slice(0, MAX_TERMS).join(" "))).toHaveLength(MAX_TERMS);
    });
  });
});

describe("parseEmailSearch: spam: (extensions section 9)", () => {
  it("when spam: takes a comparison and a number, then the score is compared with it", () => {
    expect(terms("spam:>5")).toEqual([{ kind: "spam", compare: ">", value: 5, negated: false }]);
    expect(terms("spam:>=2.5")).toEqual([{ kind: "spam", compare: ">=", value: 2.5, negated: false }]);
    expect(terms("spam:<0")).toEqual([{ kind: "spam", compare: "<", value: 0, negated: false }]);
    expect(terms("-spam:<=-1")).toEqual([{ kind: "spam", compare: "<=", value: -1, negated: true }]);
  });

  it.each(["spam:5", "spam:>", "spam:>five", "spam:=5", "spam:>1e3"])("when spam: is written %s, then it is a 400 naming the term", (q) => {
    const err = refusal(q);
    expect(err.status).toBe(400);
    expect(err.message).toContain(q);
  });
});
