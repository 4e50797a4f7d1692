import { verdict } from "./dns-check";

const expected = { mxTarget: "mx.burnbox.test", verificationRecord: "burnbox-verify=abc" };

describe("verdict", () => {
  it("when MX (any case, trailing dot) and TXT match, then the domain is verified; SPF naming the host counts as informational", () => {
    const v = verdict({ mx: ["MX.Burnbox.Test."], txt: ["burnbox-verify=abc", "v=spf1 a:mx.burnbox.test -all"], dkim: [] }, expected);
    expect(v).toEqual({ flags: { mx: true, txt: true, spf: true, dkim: null }, status: "verified" });
  });
  it("when only one of MX and TXT matches, then it is partially verified", () => {
    expect(verdict({ mx: ["mx.burnbox.test"], txt: ["burnbox-verify=other"], dkim: [] }, expected).status).toBe("partially_verified");
    expect(verdict({ mx: ["mx.elsewhere.test"], txt: ["burnbox-verify=abc"], dkim: [] }, expected).status).toBe("partially_verified");
  });
  it("when neither matches or there are no records, then it failed", () => {
    expect(verdict({ mx: [], txt: [], dkim: [] }, expected)).toEqual({
      flags: { mx: false, txt: false, spf: false, dkim: null },
      status: "failed",
    });
  });
});
