import { linkChanges, structuralDiff, structureMatches, textHunks } from "./structural-diff";

const link = (url: string, text = "", kind = "other") => ({ url, text, kind });

describe("structural diff of a mail against its snapshot (extensions section 12)", () => {
  it("when the texts are equal up to line endings and trailing blanks, then there are no hunks", () => {
    expect(textHunks("Hello\r\nWorld  \r\n", "Hello\nWorld")).toEqual([]);
  });

  it("when a line changes, then one unified hunk names the old and the new line with context", () => {
    const [hunk, ...rest] = textHunks("Hi [name],\nWelcome aboard.\nThanks", "Hi {{name}},\nWelcome aboard.\nThanks");
    expect(rest).toEqual([]);
    expect(hunk).toEqual({
      old_start: 1,
      old_lines: 3,
      new_start: 1,
      new_lines: 3,
      lines: ["-Hi [name],", "+Hi {{name}},", " Welcome aboard.", " Thanks"],
    });
  });

  it("when links are paired by host and path, then a missing one is removed, a new one added and a relabelled one changed", () => {
    const baseline = [
      link("https://app.test/verify?t=[value]", "Verify", "verify"),
      link("https://app.test/help", "Help"),
      link("https://app.test/unsub", "Unsubscribe", "unsubscribe"),
    ];
    const actual = [
      link("https://app.test/help", "Get help"),
      link("https://app.test/unsub", "Unsubscribe", "unsubscribe"),
      link("https://app.test/new"),
    ];
    expect(linkChanges(baseline, actual)).toEqual({
      added: [link("https://app.test/new")],
      removed: [baseline[0]],
      changed: [{ path: "app.test/help", baseline: baseline[1], actual: actual[0], changes: ["text"] }],
    });
  });

  it("when two mails agree after masking, then the structure matches; when the subject differs, it does not", () => {
    const parts = { subject: "Welcome", from: "App <no-reply@app.test>", text: "Hi", links: [link("https://app.test/a")] };
    expect(structureMatches(structuralDiff(parts, { ...parts, links: [link("https://app.test/a")] }))).toBe(true);
    const other = structuralDiff(parts, { ...parts, subject: "Welcome!" });
    expect(other.subject).toEqual({ baseline: "Welcome", actual: "Welcome!", equal: false });
    expect(structureMatches(other)).toBe(false);
  });
});
