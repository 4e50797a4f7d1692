import { RE2JS } from "re2js";
import { maskCustom, maskDefaults, maskHtml, maskQueryValues, masker } from "./masks";

const custom = (pattern: string, replace = "[masked]") => ({ re: RE2JS.compile(pattern), replace });

describe("snapshot masks (extensions section 12)", () => {
  it("when a link has a query string, then its values are masked and its keys, path and fragment kept", () => {
    expect(maskQueryValues("https://app.test/verify?token=abc123&u=42&flag#top")).toBe(
      "https://app.test/verify?token=[value]&u=[value]&flag#top",
    );
    expect(maskQueryValues("https://app.test/plain")).toBe("https://app.test/plain");
  });

  it("when a text holds the email's code, split or whole, then each place is masked and other numbers are not", () => {
    expect(maskDefaults("Your code is 123456. Or type 123 456. Order 12345678 ships.", ["123456"])).toBe(
      "Your code is [code]. Or type [code]. Order 12345678 ships.",
    );
  });

  it("when a text holds dates and times in the usual forms, then each is masked", () => {
    const text = [
      "Sent 2026-12-02T12:25:03.120Z",
      "Expires 2026-12-03",
      "On 12/02/2026 at 9:05 pm",
      "Wednesday, December 2nd, 2026",
      "2 Dec 2026",
      "Date: Wed, 2 Dec 2026 12:25:03 +0000",
      "at 21:05 UTC",
    ].join("\n");
    expect(maskDefaults(text, [])).toBe(
      ["Sent [date]", "Expires [date]", "On [date] at [time]", "[date]", "[date]", "Date: [date]", "at [time]"].join("\n"),
    );
  });

  it("when a text holds UUIDs, long hex and base64 tokens, then they are masked and long words are not", () => {
    const text = "id 0b6f6f2e-5a8e-4c0e-9a53-2f8d1e1b7c44 key deadbeefcafebabe0123 t dGhpcyBpcyBhIHRva2VuMTIz ok internationalization";
    expect(maskDefaults(text, [])).toBe("id [uuid] key [token] t [token] ok internationalization");
  });

  it("when a link in the text carries a token, then its query value is masked, not the host or path", () => {
    expect(maskDefaults("Go to https://app.test/reset?t=Zm9vYmFyYmF6cXV4MTIzNDU2 now", [])).toBe(
      "Go to https://app.test/reset?t=[value] now",
    );
  });

  it("when custom masks are given, then they run first with RE2, groups and the default replacement", () => {
    expect(maskCustom("Hello Alice, order #991", [custom("Hello \\w+"), custom("#(\\d)\\d+", "#$1xx")])).toBe("[masked], order #9xx");
    const mask = masker({ codes: [], custom: [custom("Hi (Alice|Bob)", "Hi [name]")] });
    expect(mask("Hi Alice, on 2026-12-02")).toBe("Hi [name], on [date]");
    expect(mask("Hi Bob, on 2026-12-09")).toBe(mask("Hi Alice, on 2026-12-02"));
  });

  it("when HTML is masked, then text nodes and attributes change, tags, styles and structure do not", () => {
    const mask = masker({ codes: ["654321"], custom: [custom("Alice|Bob", "[name]")] });
    const a = maskHtml(
      '<html><head><style>.b{color:#1a73e8}</style></head><body><p title="for Alice">Hi Alice, code <b>654321</b></p><a href="https://app.test/verify?token=xyz" style="color:red">Verify</a></body></html>',
      mask,
    );
    expect(a).toBe(
      '<html><head><style>.b{color:#1a73e8}</style></head><body><p title="for [name]">Hi [name], code <b>[code]</b></p><a href="https://app.test/verify?token=[value]" style="color:red">Verify</a></body></html>',
    );
    const b = maskHtml(
      '<html><head><style>.b{color:#1a73e8}</style></head><body><p title="for Bob">Hi Bob, code <b>654321</b></p><a href="https://app.test/verify?token=other" style="color:red">Verify</a></body></html>',
      mask,
    );
    expect(b).toBe(a);
  });
});
