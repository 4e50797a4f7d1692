import { randomUUID } from "node:crypto";
import { ORG_ROLE_GRANTS, TEAM_ROLE_GRANTS, type Actor } from "@burnbox/contracts";
import { actsOnEveryTeam, decide, ownInboxesOnly, type Standing } from "./rbac";

const actor = (over: Partial<Actor> = {}): Actor => ({
  user_id: randomUUID(),
  email: "a@example.test",
  is_system_admin: false,
  session_id: randomUUID(),
  api_key: null,
  ...over,
});
const teamId = randomUUID();
const standing = (
  orgRole: "owner" | "admin" | "member" | null,
  teamRole: "lead" | "member" | null = null,
  teamExists = true,
): Standing => ({
  orgExists: true,
  orgRole,
  orgGrants: orgRole ? ORG_ROLE_GRANTS[orgRole] : [],
  team: { exists: teamExists, role: teamRole, grants: teamRole ? TEAM_ROLE_GRANTS[teamRole] : [] },
});

describe("decide", () => {
  it("lets a team lead manage webhooks and a team member only view them", () => {
    expect(decide(actor(), "team.webhooks.manage", teamId, standing("member", "lead")).allowed).toBe(true);
    expect(decide(actor(), "team.webhooks.manage", teamId, standing("member", "member"))).toEqual({
      allowed: false,
      reason: "missing_permission",
    });
    expect(decide(actor(), "team.webhooks.view", teamId, standing("member", "member")).allowed).toBe(true);
    expect(decide(actor(), "team.inboxes.create", teamId, standing("member", "member")).allowed).toBe(true);
  });

  it("lets org owners and admins act on every team, but not plain org members", () => {
    expect(decide(actor(), "team.apikeys.manage", teamId, standing("admin")).allowed).toBe(true);
    expect(decide(actor(), "team.inboxes.view", teamId, standing("member"))).toEqual({ allowed: false, reason: "not_member" });
  });

  it("hides orgs from outsiders and missing teams from members", () => {
    expect(decide(actor(), "org.view", null, { orgExists: true, orgRole: null, orgGrants: [], team: null })).toEqual({
      allowed: false,
      reason: "not_member",
    });
    expect(decide(actor(), "team.view", teamId, standing(null, null, false))).toEqual({ allowed: false, reason: "org_not_found" });
    expect(decide(actor(), "team.view", teamId, standing("member", null, false))).toEqual({ allowed: false, reason: "team_not_found" });
    expect(decide(actor(), "org.view", null, { orgExists: false, orgRole: null, orgGrants: [], team: null }).reason).toBe("org_not_found");
  });

  it("gives org members the view permissions only and admins all but org.delete", () => {
    expect(decide(actor(), "org.domains.view", null, standing("member")).allowed).toBe(true);
    expect(decide(actor(), "org.domains.manage", null, standing("member")).allowed).toBe(false);
    expect(decide(actor(), "org.delete", null, standing("admin")).allowed).toBe(false);
    expect(decide(actor(), "org.delete", null, standing("owner")).allowed).toBe(true);
  });

  it("lets system admins bypass, but never through an API key", () => {
    const admin = actor({ is_system_admin: true });
    expect(decide(admin, "org.delete", null, { orgExists: true, orgRole: null, orgGrants: [], team: null }).allowed).toBe(true);
    const viaKey = actor({ is_system_admin: true, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } });
    expect(decide(viaKey, "team.inboxes.view", teamId, standing(null)).allowed).toBe(false);
  });

  it("limits a key to its team, its scopes and its creator's grants", () => {
    const key = (scopes: string[], team = teamId) => actor({ api_key: { id: randomUUID(), team_id: team, scopes } });
    expect(decide(key(["team.inboxes.view"]), "team.inboxes.view", teamId, standing("member", "member")).allowed).toBe(true);
    expect(decide(key(["team.inboxes.view"]), "team.webhooks.view", teamId, standing("member", "member")).allowed).toBe(false);
    // another team is unseen (404 like an unknown id), not forbidden (403)
    expect(decide(key(["team.inboxes.view"], randomUUID()), "team.inboxes.view", teamId, standing("owner"))).toEqual({
      allowed: false,
      reason: "not_member",
    });
    expect(decide(key(["team.webhooks.manage"]), "team.webhooks.manage", teamId, standing("member", "member")).allowed).toBe(false);
    expect(decide(key(["team.view"]), "org.view", null, standing("owner")).allowed).toBe(false);
  });
});

describe("decide on an archived team", () => {
  const archived: Standing = {
    ...standing("owner", "lead"),
    team: { exists: true, role: "lead", grants: TEAM_ROLE_GRANTS.lead, archived: true },
  };
  it("when a permission would change the team, then it is refused as team_archived", () => {
    expect(decide(actor(), "team.apikeys.manage", teamId, archived)).toEqual({ allowed: false, reason: "team_archived" });
    expect(decide(actor(), "team.inboxes.create", teamId, archived)).toEqual({ allowed: false, reason: "team_archived" });
  });
  it("when the permission only reads, or the caller may not act at all, then the usual answer stands", () => {
    expect(decide(actor(), "team.apikeys.view", teamId, archived).allowed).toBe(true);
    expect(
      decide(actor(), "team.webhooks.manage", teamId, {
        ...archived,
        orgRole: null,
        orgGrants: [],
        team: { exists: true, role: null, grants: [], archived: true },
      }),
    ).toEqual({
      allowed: false,
      reason: "not_member",
    });
  });
});

describe("actsOnEveryTeam", () => {
  it("when the actor is an org owner or admin, or a system admin without a key, then they act on every team", () => {
    expect(actsOnEveryTeam(actor(), "owner")).toBe(true);
    expect(actsOnEveryTeam(actor(), "admin")).toBe(true);
    expect(actsOnEveryTeam(actor({ is_system_admin: true }), null)).toBe(true);
  });

  it("when the actor is a plain member, an outsider, or a system admin using a key, then they do not", () => {
    expect(actsOnEveryTeam(actor(), "member")).toBe(false);
    expect(actsOnEveryTeam(actor(), null)).toBe(false);
    const viaKey = actor({ is_system_admin: true, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.view"] } });
    expect(actsOnEveryTeam(viaKey, null)).toBe(false);
  });
});

describe("ownInboxesOnly", () => {
  it("keeps members and leads, and their keys, to their own inboxes for inbox and mail permissions; never org owners, admins or system admins", () => {
    for (const permission of ["team.inboxes.view", "team.inboxes.manage", "team.emails.view", "team.emails.manage"] as const) {
      expect(ownInboxesOnly(actor(), "member", permission)).toBe(true);
      expect(ownInboxesOnly(actor({ api_key: { id: randomUUID(), team_id: teamId, scopes: [permission] } }), "member", permission)).toBe(
        true,
      );
      expect(ownInboxesOnly(actor(), "owner", permission)).toBe(false);
      expect(ownInboxesOnly(actor(), "admin", permission)).toBe(false);
      expect(ownInboxesOnly(actor({ is_system_admin: true }), null, permission)).toBe(false);
    }
    expect(ownInboxesOnly(actor(), "member", "team.inboxes.create")).toBe(false);
    expect(ownInboxesOnly(actor(), "member", "team.webhooks.view")).toBe(false);
  });
});
