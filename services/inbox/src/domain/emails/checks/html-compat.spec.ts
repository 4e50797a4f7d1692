import { clientSupport, isWrapperFeature, judgeHtml, scoreOf } from "./html-compat";

describe("judgeHtml", () => {
  const fancy = [
    "<!doctype html>",
    "<html><head><style>",
    ".row { display: flex; }",
    "</style></head><body>",
    '<div class="row"><video src="https://cdn.example.org/intro.mp4"></video></div>',
    "</body></html>",
  ].join("\n");

  it("when the HTML uses flexbox and <video>, then Outlook on Windows lacks them, each named by its caniemail slug with its first line", () => {
    const report = judgeHtml(fancy);
    const flex = report.issues.find((i) => i.feature === "css-display-flex");
    expect(flex).toMatchObject({ line: 3 });
    expect(flex?.clients_unsupported).toContain("outlook.windows");
    const video = report.issues.find((i) => i.feature === "html-video");
    expect(video?.clients_unsupported).toContain("outlook.windows");
    expect(video?.line).toBe(5);
  });

  it("when some clients lack a feature, then the score is below 100, above 0, with one decimal", () => {
    const report = judgeHtml(fancy);
    expect(report.clients.length).toBeGreaterThan(20);
    expect(report.clients).toEqual(expect.arrayContaining(["outlook.windows", "gmail.android", "apple-mail.ios"]));
    expect(report.score).toBeLessThan(100);
    expect(report.score).toBeGreaterThan(0);
    // one decimal
    expect(Math.round(report.score * 10)).toBeCloseTo(report.score * 10, 6);
  });

  it("when a plain mail has only its wrappers and supported elements, then its score is 100 and the wrappers are listed unscored", () => {
    const report = judgeHtml("<html><body><h1>Hi</h1><p>text</p></body></html>");
    expect(report.score).toBe(100);
    const body = report.issues.find((i) => i.feature === "html-body");
    expect(body).toMatchObject({ scored: false });
    expect(body?.clients_unsupported).toContain("outlook.macos");
    expect(body?.notes["gmail.android"]).toMatch(/Replaced by a `<div>`/);
    expect(report.issues.every((i) => !i.scored)).toBe(true);
  });

  it("when a feature is scored, then its issue says so and carries notes only for the clients it names", () => {
    const report = judgeHtml(fancy);
    const flex = report.issues.find((i) => i.feature === "css-display-flex");
    expect(flex?.scored).toBe(true);
    const named = new Set([...(flex?.clients_unsupported ?? []), ...(flex?.clients_partial ?? [])]);
    for (const client of Object.keys(flex?.notes ?? {})) expect(named.has(client)).toBe(true);
  });

  it("when a client lacks one of four features and supports another in part, then it scores 1 - (1 + 1/2)/4", () => {
    expect(clientSupport(4, 1, 1)).toBe(0.625);
    expect(clientSupport(4, 0, 0)).toBe(1);
    expect(clientSupport(0, 0, 0)).toBe(1);
    expect(clientSupport(2, 2, 0)).toBe(0);
    expect(clientSupport(2, 0, 2)).toBe(0.5);
  });

  it("when clients' supports are averaged, then the score is their mean as a percentage with one decimal", () => {
    expect(scoreOf([1, 0.625, 0.5])).toBe(70.8);
    expect(scoreOf([1, 1])).toBe(100);
    expect(scoreOf([])).toBe(100);
    expect(scoreOf([0, 1 / 3])).toBe(16.7);
  });

  it("when a feature is the document's wrapper, then it is not scored", () => {
    for (const t of ["<body> element", "<html> element", "<head> element", "HTML5 doctype"]) expect(isWrapperFeature(t)).toBe(true);
    for (const t of ["<h1> to <h6> elements", "<p> element", "display:flex", "<video> element"]) expect(isWrapperFeature(t)).toBe(false);
  });

  it("when a client supports a feature only in part, then it is listed as partial, not unsupported", () => {
    const report = judgeHtml(fancy);
    for (const issue of report.issues) {
      expect(issue.clients_unsupported.filter((c) => issue.clients_partial.includes(c))).toEqual([]);
    }
    expect(report.issues.some((i) => i.clients_partial.length > 0)).toBe(true);
  });

  it("when the same HTML is judged twice, then the reports are equal (no state kept between checks)", () => {
    expect(judgeHtml(fancy)).toEqual(judgeHtml(fancy));
  });
});
