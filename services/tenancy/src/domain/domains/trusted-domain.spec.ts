import { isTrusted } from "./trusted-domain";

describe("isTrusted", () => {
  const trusted = ["Trusted.Test.", "other.test"];

  it("when the name is a trusted domain or below one, in any case and with a root dot, then it is trusted", () => {
    expect(isTrusted("trusted.test", trusted)).toBe(true);
    expect(isTrusted("MAIL.Trusted.Test.", trusted)).toBe(true);
    expect(isTrusted("a.b.other.test", trusted)).toBe(true);
  });

  it("when the name only ends with the same letters, or sits above, then it is not trusted", () => {
    expect(isTrusted("eviltrusted.test", trusted)).toBe(false);
    expect(isTrusted("test", trusted)).toBe(false);
    expect(isTrusted("trusted.test.evil.com", trusted)).toBe(false);
  });

  it("when no domain is trusted (or only an empty one), then nothing is", () => {
    expect(isTrusted("trusted.test", [])).toBe(false);
    expect(isTrusted("trusted.test", ["", "."])).toBe(false);
  });
});
