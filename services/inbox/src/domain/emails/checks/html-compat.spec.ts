import { judgeHtml } from "./html-compat";

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

  it("when some clients lack a feature, then the score is the share of the checked clients that lack none", () => {
    const report = judgeHtml(fancy);
    const lacking = new Set(report.issues.flatMap((i) => [...i.clients_unsupported, ...i.clients_partial]));
    expect(report.clients.length).toBeGreaterThan(20);
    expect(report.clients).toEqual(expect.arrayContaining(["outlook.windows", "gmail.android", "apple-mail.ios"]));
    expect(report.score).toBe(Math.floor(((report.clients.length - lacking.size) * 100) / report.clients.length));
    expect(report.score).toBeLessThan(100);
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
