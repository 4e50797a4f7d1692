import { parseAddresses } from "./addresses";

describe("parseAddresses", () => {
  it("when addresses are pasted one per line or separated by commas, semicolons or spaces, then each comes once, in order", () => {
    expect(parseAddresses("a@x.test\nb@x.test, c@x.test;d@x.test  e@x.test\n\na@x.test")).toEqual([
      "a@x.test",
      "b@x.test",
      "c@x.test",
      "d@x.test",
      "e@x.test",
    ]);
  });
  it("when the text is blank, then there are no addresses", () => {
    expect(parseAddresses(" \n ,; ")).toEqual([]);
  });
});
