import { isTimeZone } from "./time-zone";

describe("isTimeZone", () => {
  it("when the name is an IANA zone or UTC, then it is accepted", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("America/Argentina/Buenos_Aires")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
  });

  it("when the name is made up or malformed, then it is refused", () => {
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("Europe/")).toBe(false);
    expect(isTimeZone("+25:00")).toBe(false);
  });
});
