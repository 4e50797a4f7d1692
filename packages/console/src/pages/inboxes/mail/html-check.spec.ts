import { formatScore, groupNotes, noteParts, splitIssues, type HtmlCheckIssue } from "./html-check";

const issue = (feature: string, scored: boolean): HtmlCheckIssue => ({
  feature,
  clients_unsupported: [],
  clients_partial: [],
  scored,
  notes: {},
});

describe("the HTML check's view model", () => {
  it("given a score with a decimal, when formatted, then the decimal is kept", () => {
    expect(formatScore(87.7)).toBe("87.7%");
    expect(formatScore(99.9)).toBe("99.9%");
    expect(formatScore(0.4)).toBe("0.4%");
  });

  it("given a whole score, when formatted, then no decimal is added", () => {
    expect(formatScore(100)).toBe("100%");
    expect(formatScore(0)).toBe("0%");
  });

  it("given issues scored and not, when split, then the wrappers are apart and the order is kept", () => {
    const issues = [issue("css-display", true), issue("html-body", false), issue("css-display-flex", true), issue("html-doctype", false)];
    const { scored, unscored } = splitIssues(issues);
    expect(scored.map((i) => i.feature)).toEqual(["css-display", "css-display-flex"]);
    expect(unscored.map((i) => i.feature)).toEqual(["html-body", "html-doctype"]);
  });

  it("given notes some clients share, when grouped, then each text is listed once with its clients in order", () => {
    const grouped = groupNotes({
      "gmail.ios": "Not supported with non Google accounts.",
      "outlook.windows": "Only `display:none`.",
      "gmail.android": "Not supported with non Google accounts.",
    });
    expect(grouped).toEqual([
      { clients: ["gmail.ios", "gmail.android"], text: "Not supported with non Google accounts." },
      { clients: ["outlook.windows"], text: "Only `display:none`." },
    ]);
  });

  it("given no notes, when grouped, then there is nothing to list", () => {
    expect(groupNotes({})).toEqual([]);
  });

  it("given a note with code spans, when split, then the code pieces are marked", () => {
    expect(noteParts("Partial. Only supports `display:none` (but not on `<img>`).")).toEqual([
      { code: false, text: "Partial. Only supports " },
      { code: true, text: "display:none" },
      { code: false, text: " (but not on " },
      { code: true, text: "<img>" },
      { code: false, text: ")." },
    ]);
  });

  it("given a note with a Markdown link, when split, then only the link's text is kept", () => {
    expect(noteParts("See [buttons.cm](https://buttons.cm/) and [VML documentation](https://docs.example/vml).")).toEqual([
      { code: false, text: "See buttons.cm and VML documentation." },
    ]);
  });
});
