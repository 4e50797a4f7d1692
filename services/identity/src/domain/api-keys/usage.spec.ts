import type { ApiKey } from "@burnbox/contracts";
import { addPendingUsage } from "./usage";

const key = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: "6f1c2a9e-0000-4000-8000-000000000001",
  team_id: "6f1c2a9e-0000-4000-8000-000000000002",
  created_by: "6f1c2a9e-0000-4000-8000-000000000003",
  name: "ci",
  key_prefix: "bb_01234567",
  scopes: ["team.view"],
  is_active: true,
  allowed_ips: [],
  expires_at: null,
  revoked_at: null,
  revoked_by: null,
  request_count: 10,
  last_used_at: "2030-01-01T10:00:00.000Z",
  last_used_ip: "198.51.100.1",
  created_at: "2029-12-01T00:00:00.000Z",
  updated_at: "2029-12-01T00:00:00.000Z",
  ...overrides,
});

describe("addPendingUsage", () => {
  it("when nothing is pending, then the stored figures are shown", () => {
    expect(addPendingUsage(key(), undefined)).toEqual(key());
  });

  it("when a later use is pending, then the counts add up and the pending use is the last one", () => {
    const shown = addPendingUsage(key(), { count: 3, last_used_at: "2030-01-01T11:00:00.000Z", last_used_ip: "203.0.113.9" });
    expect(shown).toMatchObject({ request_count: 13, last_used_at: "2030-01-01T11:00:00.000Z", last_used_ip: "203.0.113.9" });
  });

  it("when the pending use is older than the flushed one, then the count adds up but the last use stays", () => {
    const shown = addPendingUsage(key(), { count: 2, last_used_at: "2030-01-01T09:00:00.000Z", last_used_ip: "203.0.113.9" });
    expect(shown).toMatchObject({ request_count: 12, last_used_at: "2030-01-01T10:00:00.000Z", last_used_ip: "198.51.100.1" });
  });

  it("when the key was never used before, then the pending use is the last one", () => {
    const shown = addPendingUsage(key({ request_count: 0, last_used_at: null, last_used_ip: null }), {
      count: 1,
      last_used_at: "2030-01-01T09:00:00.000Z",
      last_used_ip: "::1",
    });
    expect(shown).toMatchObject({ request_count: 1, last_used_at: "2030-01-01T09:00:00.000Z", last_used_ip: "::1" });
  });

  it("when only a count is pending, then the last use stays the flushed one", () => {
    const shown = addPendingUsage(key(), { count: 4, last_used_at: null, last_used_ip: null });
    expect(shown).toMatchObject({ request_count: 14, last_used_at: "2030-01-01T10:00:00.000Z", last_used_ip: "198.51.100.1" });
  });
});
