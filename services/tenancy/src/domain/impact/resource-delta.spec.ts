import { resourceDelta } from "./resource-delta";

describe("resourceDelta", () => {
  it("when a webhook is created or deleted, then the team's webhook counter moves by one", () => {
    expect(resourceDelta("webhook.created", {})).toEqual({ resource: "webhooks", delta: 1 });
    expect(resourceDelta("webhook.deleted", {})).toEqual({ resource: "webhooks", delta: -1 });
  });

  it("when keys are created, revoked or bulk-revoked, then the key counter moves by the number of keys", () => {
    expect(resourceDelta("apikey.created", {})).toEqual({ resource: "apiKeys", delta: 1 });
    expect(resourceDelta("apikey.revoked", {})).toEqual({ resource: "apiKeys", delta: -1 });
    expect(resourceDelta("apikey.bulk_revoked", { key_ids: ["a", "b", "c"] })).toEqual({ resource: "apiKeys", delta: -3 });
  });

  it("when the action changes no count (an update, a rotation), then nothing moves", () => {
    expect(resourceDelta("webhook.updated", {})).toBeNull();
    expect(resourceDelta("apikey.rotated", {})).toBeNull();
  });
});
