import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

/**
 * Every service keeps tenancy's RBAC decisions in memory (service-kit's authz), so these tests
 * first make each decision once (the cache holds it), then change access through the API and
 * require the next answers to follow within 1 s, as the contract asks. Each test polls with a
 * 1 s deadline counted from the change's response.
 */
describe("access changes reach every service within 1 s, cached decisions notwithstanding", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  /** A world whose team has one more user, `role` in the team and a plain member of the org. */
  async function worldWithTeamMember(role: "lead" | "member") {
    const world = await teamWithDomain(api);
    const user = await registerUser(api, role);
    const org = await api("POST", `/orgs/${world.orgId}/members/add`, {
      token: world.owner.token,
      body: { user_id: user.userId, role: "member" },
    });
    expect(org.status).toBe(201);
    const team = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
      token: world.owner.token,
      body: { user_id: user.userId, role },
    });
    expect(team.status).toBe(201);
    return { world, user };
  }

  /** Polls `probe` until it answers `status`; fails when that takes 1 s or more after `since`. */
  async function answersWithin1s(since: number, status: number, probe: () => Promise<{ status: number }>): Promise<void> {
    let last = 0;
    while (Date.now() - since < 1000) {
      last = (await probe()).status;
      if (last === status) return;
    }
    throw new Error(`still ${last} 1 s after the change (expected ${status})`);
  }

  it("a member removed from the team cannot read its inbox any more", async () => {
    const { world, user } = await worldWithTeamMember("member");
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "shared");
    const read = () => api("GET", `/inboxes/${inbox.id}`, { token: user.token });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200); // now answered from the decision cache

    const removed = await api("DELETE", `/orgs/${world.orgId}/teams/${world.teamId}/members/${user.userId}`, {
      token: world.owner.token,
    });
    expect(removed.status).toBe(204);
    await answersWithin1s(Date.now(), 404, read);
  });

  it("a lead lowered to member loses the right to create API keys", async () => {
    const { world, user } = await worldWithTeamMember("lead");
    const createKey = () =>
      api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: user.token,
        body: { name: `k-${randomBytes(3).toString("hex")}`, scopes: ["team.inboxes.view"] },
      });
    expect((await createKey()).status).toBe(201);
    expect((await createKey()).status).toBe(201);

    const lowered = await api("PATCH", `/orgs/${world.orgId}/teams/${world.teamId}/members/${user.userId}`, {
      token: world.owner.token,
      body: { role: "member" },
    });
    expect(lowered.status).toBe(200);
    await answersWithin1s(Date.now(), 403, createKey);
  });

  it("an archived team takes no new inbox, and its inboxes stay readable", async () => {
    const { world, user } = await worldWithTeamMember("member");
    const create = () =>
      api<{ id: string }>("POST", "/inboxes", {
        token: user.token,
        body: { domain_assignment_id: world.assignmentId, alias: `a-${randomBytes(3).toString("hex")}` },
      });
    const first = await create();
    expect(first.status).toBe(201);
    expect((await create()).status).toBe(201);

    const archived = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/archive`, { token: world.owner.token });
    expect(archived.status).toBe(200);
    await answersWithin1s(Date.now(), 409, create);
    expect((await api("GET", `/inboxes/${first.body.id}`, { token: user.token })).status).toBe(200);
  });

  it("a revoked or disabled API key is refused within 1 s, though the gateway keeps keys in memory", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "keyed");
    const keysPath = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const make = async () => {
      const key = await api<{ id: string; raw_key: string }>("POST", keysPath, {
        token: world.owner.token,
        body: { name: `k-${randomBytes(3).toString("hex")}`, scopes: ["team.inboxes.view"] },
      });
      expect(key.status).toBe(201);
      const read = () => api("GET", `/inboxes/${inbox.id}`, { token: key.body.raw_key });
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200); // now held in the gateway's memory
      return { id: key.body.id, read };
    };

    const revoked = await make();
    expect((await api("DELETE", `${keysPath}/${revoked.id}`, { token: world.owner.token })).status).toBe(204);
    await answersWithin1s(Date.now(), 401, revoked.read);

    const disabled = await make();
    const patched = await api("PATCH", `${keysPath}/${disabled.id}`, { token: world.owner.token, body: { is_active: false } });
    expect(patched.status).toBe(200);
    await answersWithin1s(Date.now(), 401, disabled.read);
  });
});
