import { INBOX_ALIAS_PATTERN, type GetAssignmentReply } from "@burnbox/contracts";
import { assertAssignmentUsable, extendedExpiry, randomAlias, resolveTtlMs } from "./inbox-rules";

type Assignment = NonNullable<GetAssignmentReply["assignment"]>;
const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  id: "7f8c1c3e-0000-4000-8000-000000000001",
  org_id: "7f8c1c3e-0000-4000-8000-000000000002",
  team_id: "7f8c1c3e-0000-4000-8000-000000000003",
  domain_id: "7f8c1c3e-0000-4000-8000-000000000004",
  domain_name: "mail.example",
  access_level: "full",
  domain_verified: true,
  team_archived: false,
  default_ttl_seconds: 600,
  max_ttl_seconds: 86_400,
  max_inboxes_per_domain: 1000,
  ...overrides,
});

/** What `fn` throws; fails the test when it throws nothing. */
function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected an error, none was thrown");
}

describe("resolveTtlMs", () => {
  it("when no TTL is asked for, then the default applies", () => {
    expect(resolveTtlMs(undefined, 600, 86_400)).toBe(600_000);
  });

  it("when a TTL within the maximum is asked for, then it applies, up to the maximum itself", () => {
    expect(resolveTtlMs("1h30m", 600, 86_400)).toBe(5_400_000);
    expect(resolveTtlMs("24h", 600, 86_400)).toBe(86_400_000);
  });

  it("when the TTL exceeds the maximum or is zero, then it is a validation error naming the limit", () => {
    expect(errorOf(() => resolveTtlMs("25h", 600, 86_400))).toMatchObject({ status: 400, message: "ttl exceeds the maximum of 86400s" });
    expect(errorOf(() => resolveTtlMs("0s", 600, 86_400))).toMatchObject({ status: 400, message: "ttl must be positive" });
  });
});

describe("assertAssignmentUsable", () => {
  it("when the assignment is full, verified and the team active, then inboxes may be created", () => {
    expect(() => assertAssignmentUsable(assignment())).not.toThrow();
  });

  it("when the domain is read-only to the team, then 403; unverified, then 400; archived team, then 409 (a state conflict)", () => {
    expect(errorOf(() => assertAssignmentUsable(assignment({ access_level: "read_only" })))).toMatchObject({
      status: 403,
      message: "this domain is assigned read-only to the team",
    });
    expect(errorOf(() => assertAssignmentUsable(assignment({ domain_verified: false })))).toMatchObject({
      status: 400,
      message: "domain is not verified",
    });
    expect(errorOf(() => assertAssignmentUsable(assignment({ team_archived: true })))).toMatchObject({
      status: 409,
      message: "team is archived",
    });
  });
});

describe("randomAlias", () => {
  it("when drawn many times, then every alias is one a client could have chosen, and they differ", () => {
    const drawn = Array.from({ length: 500 }, () => randomAlias());
    for (const alias of drawn) expect(alias).toMatch(INBOX_ALIAS_PATTERN);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});

describe("extendedExpiry", () => {
  const createdAt = Date.parse("2026-01-01T00:00:00Z");
  const hour = 3_600_000;

  it("when the extension stays within created_at + the maximum TTL, then the inbox expires now + duration", () => {
    const now = createdAt + 5 * hour;
    expect(extendedExpiry({ now, createdAt, durationMs: hour, maxTtlMs: 24 * hour })).toEqual(new Date(now + hour));
    expect(extendedExpiry({ now, createdAt, durationMs: 19 * hour, maxTtlMs: 24 * hour })).toEqual(new Date(createdAt + 24 * hour));
  });

  it("when the extension would pass created_at + the maximum TTL, then it is a validation error", () => {
    expect(
      errorOf(() => extendedExpiry({ now: createdAt + 5 * hour, createdAt, durationMs: 20 * hour, maxTtlMs: 24 * hour })),
    ).toMatchObject({
      status: 400,
    });
  });

  it("when the duration is not positive, then it is a validation error", () => {
    expect(errorOf(() => extendedExpiry({ now: createdAt, createdAt, durationMs: 0, maxTtlMs: 24 * hour }))).toMatchObject({
      status: 400,
      message: "duration must be positive",
    });
  });
});
