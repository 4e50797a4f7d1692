import { resolveInboxLimit, resolveInboxTtl } from "./inbox-ttl";

describe("resolveInboxTtl", () => {
  it("when a narrower layer sets a default, then it overrides the wider ones; the maximum is the smallest set", () => {
    const layers = [{ default_inbox_ttl: "10m", max_inbox_ttl: "24h" }, { default_inbox_ttl: "1h" }, {}, { max_inbox_ttl: "90s" }];
    expect(resolveInboxTtl(layers)).toEqual({ defaultTtl: 3600, maxTtl: 90 });
    expect(resolveInboxTtl([{ max_inbox_ttl: "1h" }, { max_inbox_ttl: "2h" }])).toEqual({ defaultTtl: null, maxTtl: 3600 });
  });

  it("when a layer's value is malformed or not a string, then the wider value stands", () => {
    const layers = [
      { default_inbox_ttl: "10m", max_inbox_ttl: "1d" },
      { default_inbox_ttl: "soon", max_inbox_ttl: 60 },
    ];
    expect(resolveInboxTtl(layers)).toEqual({ defaultTtl: 600, maxTtl: 86400 });
  });

  it("when no layer sets a TTL, then both are null", () => {
    expect(resolveInboxTtl([{}, { other: "1h" }])).toEqual({ defaultTtl: null, maxTtl: null });
  });
});

describe("resolveInboxLimit", () => {
  it("when tiers set max_inboxes_per_domain, then the smallest wins; a lower tier cannot raise the org's", () => {
    expect(resolveInboxLimit([{ max_inboxes_per_domain: 50 }, {}, { max_inboxes_per_domain: 3 }, {}])).toBe(3);
    expect(resolveInboxLimit([{ max_inboxes_per_domain: 5 }, { max_inboxes_per_domain: 100 }])).toBe(5);
  });
  it("when a value is malformed or nothing is set, then it counts as unset (the default 1000)", () => {
    expect(resolveInboxLimit([{ max_inboxes_per_domain: 0 }, { max_inboxes_per_domain: "2" }, { max_inboxes_per_domain: 7 }])).toBe(7);
    expect(resolveInboxLimit([{}])).toBe(1000);
  });
});
