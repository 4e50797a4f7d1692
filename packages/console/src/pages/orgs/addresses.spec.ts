import { parseAddresses } from "./addresses";

describe("pasted invite addresses", () => {
  it("when addresses are separated by commas, semicolons, spaces and new lines, then each is one entry", () => {
    expect(parseAddresses("a@x.test, b@x.test;c@x.test\n d@x.test\t\te@x.test")).toEqual([
      "a@x.test",
      "b@x.test",
      "c@x.test",
      "d@x.test",
      "e@x.test",
    ]);
  });
  it("when the text is empty or only separators, then there is none", () => {
    expect(parseAddresses(" ,\n; ")).toEqual([]);
  });
  it("keeps duplicates, which the API reports as skipped", () => {
    expect(parseAddresses("a@x.test a@x.test")).toEqual(["a@x.test", "a@x.test"]);
  });
});
