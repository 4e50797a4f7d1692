import { safeField, safeJson, safeText } from "./terminal.js";

describe("what the CLI prints of a server's text", () => {
  it.each([
    ["OSC 0 (window title), BEL-terminated", "a\x1b]0;title\x07b", "ab"],
    ["OSC 52 (clipboard), ST-terminated", "a\x1b]52;c;ZXZpbA==\x1b\\b", "ab"],
    ["CSI 2J (clear screen) and SGR colours", "\x1b[2J\x1b[1;31mred\x1b[0m", "red"],
    ["CSI with private parameters (hide cursor)", "a\x1b[?25lb", "ab"],
    ["8-bit CSI and OSC", "a\u009b2Jb\u009d0;t\u009cc", "abc"],
    ["DCS and APC strings", "a\x1bPq#0\x1b\\b\x1b_x\x07c", "abc"],
    ["an unterminated OSC: only its introducer goes", "a\x1b]0;rest", "a0;rest"],
    ["a lone ESC and two-byte escapes (RIS)", "a\x1bcb\x1b", "ab"],
    ["other C0 controls, DEL, C1", "a\x00\x08\x0b\x0c\x7f\u0085b", "ab"],
    ["a bare CR becomes a line break (it cannot overwrite the line)", "safe\rEVIL", "safe\nEVIL"],
    ["CRLF becomes LF; LF and TAB stay", "a\r\nb\tc\n", "a\nb\tc\n"],
    ["bidi overrides and isolates (they reorder what the line shows)", "pay \u202eTXT.exe\u202c and \u2067x\u2069", "pay TXT.exe and x"],
    ["non-ASCII text stays, right-to-left script included", "Grüße, 日本 🎉 שלום", "Grüße, 日本 🎉 שלום"],
  ])("safeText: %s", (_what, input, expected) => {
    expect(safeText(input)).toBe(expected);
  });

  it("safeField: also folds line breaks and tabs into one space (a field adds no line or column)", () => {
    expect(safeField("Subject\n\x1b[2Jid\tfake\r\nrow")).toBe("Subject id fake row");
  });

  it("safeJson: the same value back, with no control character raw in the text", () => {
    const value = { s: "a\x1b]0;t\x07b\u009b2J\x7f\u202e", n: [1, "\n"] };
    const text = safeJson(value, 2);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain("\\u001b]0;t\\u0007b\\u009b2J\\u007f\\u202e");
    expect(JSON.parse(text)).toEqual(value);
  });
});
