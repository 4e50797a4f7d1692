import { cascadeProblem, effectiveMaxSeconds } from "./ttl-cascade";

describe("the TTL cascade", () => {
  it("when tiers set maxima, then the effective maximum is the smallest of them and of the config (24h)", () => {
    expect(effectiveMaxSeconds([])).toBe(86_400);
    expect(effectiveMaxSeconds([{ max_inbox_ttl: "2h" }, { max_inbox_ttl: "5h" }])).toBe(7200);
  });
  it("when a tier's maximum exceeds the tiers above it, then it is refused", () => {
    expect(cascadeProblem({ max_inbox_ttl: "3h" }, [{ max_inbox_ttl: "2h" }])).toMatch(/max_inbox_ttl/);
    expect(cascadeProblem({ max_inbox_ttl: "48h" }, [])).toMatch(/max_inbox_ttl/);
    expect(cascadeProblem({ max_inbox_ttl: "1h" }, [{ max_inbox_ttl: "2h" }])).toBeNull();
  });
  it("when a tier's default exceeds its own or the inherited maximum, then it is refused", () => {
    expect(cascadeProblem({ default_inbox_ttl: "2h", max_inbox_ttl: "1h" }, [])).toMatch(/default_inbox_ttl/);
    expect(cascadeProblem({ default_inbox_ttl: "3h" }, [{ max_inbox_ttl: "2h" }])).toMatch(/default_inbox_ttl/);
    expect(cascadeProblem({ default_inbox_ttl: "0s" }, [])).toMatch(/positive/);
  });
});
