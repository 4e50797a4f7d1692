import { pickDue } from "./pick-due";

const due = (...pairs: Array<[string, string]>) => pairs.map(([id, webhookId]) => ({ id, webhookId }));

describe("picking due deliveries to claim", () => {
  it("when one webhook has more due than its slots, then the others' deliveries are picked past it", () => {
    const picked = pickDue(due(["1", "slow"], ["2", "slow"], ["3", "slow"], ["4", "fast"]), {
      limit: 10,
      perWebhookLimit: 2,
      inFlight: new Map(),
    });
    expect(picked).toEqual(["1", "2", "4"]);
  });

  it("when a webhook already has deliveries in flight, then only its free slots are used", () => {
    const picked = pickDue(due(["1", "a"], ["2", "a"], ["3", "b"]), { limit: 10, perWebhookLimit: 2, inFlight: new Map([["a", 1]]) });
    expect(picked).toEqual(["1", "3"]);
  });

  it("when more are due than the overall limit, then the oldest due are picked up to it", () => {
    expect(pickDue(due(["1", "a"], ["2", "b"], ["3", "c"]), { limit: 2, perWebhookLimit: 5, inFlight: new Map() })).toEqual(["1", "2"]);
  });
});
