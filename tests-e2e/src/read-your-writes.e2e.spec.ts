import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, createInbox, newClientIp, registerAdmin, registerUser, teamWithDomain, type Tokens } from "./world";

type World = Awaited<ReturnType<typeof teamWithDomain>>;

/**
 * Read your writes across services: once a change has answered 2xx, the client's next request
 * (through any gateway) sees it, even when another service applies part of it (docs/operations.md,
 * "Read your writes"). Each test reads right after the answer, without waiting or retrying.
 */
describe("a client sees its own write", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  /** The invite link's token from the newest mail in an inbox of the world's team. */
  async function inviteToken(world: World, inboxId: string): Promise<string> {
    const list = await waitFor(
      async () => {
        const res = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inboxId}/emails`, { token: world.owner.token });
        return res.body.data[0];
      },
      { what: "the invite mail", timeoutMs: 15_000 },
    );
    const email = await api<{ body_text: string }>("GET", `/emails/${list.id}`, { token: world.owner.token });
    const match = /\/invites\/([0-9a-f]{64})\b/.exec(email.body.body_text);
    if (!match?.[1]) throw new Error(`no invite link in: ${email.body.body_text}`);
    return match[1];
  }

  const newKey = async (world: World) => {
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "ci", scopes: ["team.inboxes.view"] },
    });
    expect(key.status).toBe(201);
    return key.body.raw_key;
  };

  it("when someone registers with an invite, then their very next requests see the org and team membership", async () => {
    const world = await teamWithDomain(api);
    // three at once: the membership must exist when each answer arrives, not usually
    const boxes = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const inbox = await createInbox(api, world.owner.token, world.assignmentId, `ryw-${i}-${randomBytes(3).toString("hex")}`);
        const invite = await api("POST", `/orgs/${world.orgId}/invites`, {
          token: world.owner.token,
          body: { email: inbox.full_address, org_role: "member", team_assignments: [{ team_id: world.teamId, team_role: "member" }] },
        });
        expect(invite.status).toBe(201);
        return { email: inbox.full_address, token: await inviteToken(world, inbox.id) };
      }),
    );
    await Promise.all(
      boxes.map(async (box) => {
        const joined = await api<{ user: { id: string }; tokens: Tokens }>("POST", "/auth/register", {
          body: { email: box.email, password: STRONG_PASSWORD, display_name: "Invited", invite_token: box.token },
          headers: { "x-forwarded-for": newClientIp() },
        });
        expect(joined.status).toBe(201);
        const token = joined.body.tokens.access_token;
        const me = await api<{ role: string }>("GET", `/orgs/${world.orgId}/members/me`, { token });
        expect({ status: me.status, role: me.body.role }).toEqual({ status: 200, role: "member" });
        expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}/inboxes`, { token })).status).toBe(200);
      }),
    );
  });

  it("when a signed-in user accepts an invite, then their next requests see the membership and the address verified", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `ryw-acc-${randomBytes(3).toString("hex")}`);
    const user = await api<{ user: { id: string; email_verified: boolean }; tokens: Tokens }>("POST", "/auth/register", {
      body: { email: inbox.full_address, password: STRONG_PASSWORD, display_name: "Existing" },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(user.status).toBe(201);
    expect(user.body.user.email_verified).toBe(false);
    const token = user.body.tokens.access_token;
    const invite = await api("POST", `/orgs/${world.orgId}/invites`, {
      token: world.owner.token,
      body: { email: inbox.full_address, org_role: "member" },
    });
    expect(invite.status).toBe(201);
    // the account's own verification mail may land first: take the invite's
    const inviteLink = await waitFor(
      async () => {
        const list = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
          token: world.owner.token,
        });
        const mail = list.body.data.find((m) => m.subject.includes("invited"));
        if (!mail) return undefined;
        const full = await api<{ body_text: string }>("GET", `/emails/${mail.id}`, { token: world.owner.token });
        return /\/invites\/([0-9a-f]{64})\b/.exec(full.body.body_text)?.[1];
      },
      { what: "the invite mail", timeoutMs: 15_000 },
    );
    expect((await api("POST", `/invites/${inviteLink}/accept`, { token })).status).toBe(200);
    expect((await api<{ email_verified: boolean }>("GET", "/auth/me", { token })).body.email_verified).toBe(true);
    expect((await api("GET", `/orgs/${world.orgId}/members/me`, { token })).status).toBe(200);
  });

  it("when a system admin transfers a team, then the new org reads its inbox, webhook and key at once, and the old org no longer does", async () => {
    const admin = await registerAdmin(api, system);
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const inbox = await createInbox(api, token, world.assignmentId, `ryw-mv-${randomBytes(3).toString("hex")}`);
    const hook = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token,
      body: { url: "https://hooks.example.com/ryw", events: ["email.received"] },
    });
    const key = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token,
      body: { name: "moved", scopes: ["team.inboxes.view"] },
    });
    expect([hook.status, key.status]).toEqual([201, 201]);
    const target = await registerUser(api, "target-owner");
    const org = await api<{ id: string }>("POST", "/orgs", {
      token: target.token,
      body: { name: `Target ${randomBytes(3).toString("hex")}` },
    });
    expect(org.status).toBe(201);
    const moved = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/transfer`, {
      token: admin.token,
      body: { target_org_id: org.body.id },
    });
    expect(moved.status).toBe(200);
    const team = `/orgs/${org.body.id}/teams/${world.teamId}`;
    const [movedInbox, hooks, movedKey, oldInbox] = await Promise.all([
      api("GET", `/inboxes/${inbox.id}`, { token: target.token }),
      api<{ data: Array<{ id: string }> }>("GET", `${team}/webhooks`, { token: target.token }),
      api("GET", `${team}/api-keys/${key.body.id}`, { token: target.token }),
      api("GET", `/inboxes/${inbox.id}`, { token }),
    ]);
    expect({ inbox: movedInbox.status, hooks: hooks.body.data?.map((h) => h.id), key: movedKey.status, old: oldInbox.status }).toEqual({
      inbox: 200,
      hooks: [hook.body.id],
      key: 200,
      old: 404,
    });
  });

  it("when a system admin transfers a domain, then the old org's inbox on it is inactive and refuses mail at once", async () => {
    const admin = await registerAdmin(api, system);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `ryw-dom-${randomBytes(3).toString("hex")}`);
    const domains = await api<{ data: Array<{ domain_id: string }> }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/domains`, {
      token: world.owner.token,
    });
    const target = await api<{ id: string }>("POST", "/orgs", {
      token: world.owner.token,
      body: { name: `Dest ${randomBytes(3).toString("hex")}` },
    });
    const moved = await api("POST", `/orgs/${world.orgId}/domains/${domains.body.data[0]!.domain_id}/transfer`, {
      token: admin.token,
      body: { target_org_id: target.body.id },
    });
    expect(moved.status).toBe(200);
    const after = await api<{ is_active: boolean }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
    expect(after.body.is_active).toBe(false);
    const refused = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "late", text: "x" });
    expect(refused.rcpt.code).toBe(550);
  });

  it("when a team is deleted, then its API keys are refused with 401 from the moment the DELETE answered", async () => {
    const world = await teamWithDomain(api);
    const key = await newKey(world);
    // the gateway now holds the key (Redis and memory)
    expect((await api("GET", "/inboxes", { token: key })).status).toBe(200);
    expect((await api("DELETE", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token })).status).toBe(204);
    const after = await api("GET", "/inboxes", { token: key });
    expect({ status: after.status, body: after.body }).toEqual({
      status: 401,
      body: { error: "invalid API key", code: "unauthenticated" },
    });
  });

  it("when a team is deleted while its API key is in use, then the first request after the DELETE answered is refused, round after round", async () => {
    const world = await teamWithDomain(api);
    for (let round = 0; round < 12; round++) {
      const team = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams`, {
        token: world.owner.token,
        body: { name: `Busy ${round}` },
      });
      expect(team.status).toBe(201);
      const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${team.body.id}/api-keys`, {
        token: world.owner.token,
        body: { name: "busy", scopes: ["team.inboxes.view"] },
      });
      expect(key.status).toBe(201);
      expect((await api("GET", "/inboxes", { token: key.body.raw_key })).status).toBe(200);
      // requests with the key keep coming while the DELETE runs (their lookups race with the removal)
      let stop = false;
      // each round's refused calls from client IPs of their own: the per-IP limit (60 a minute) counts
      // refused keys, and the loops' and the checked call's must not use up the runner's or each other's
      const loopIp = { "x-forwarded-for": newClientIp() };
      const inUse = async () => {
        while (!stop) await api("GET", "/inboxes", { token: key.body.raw_key, headers: loopIp });
      };
      const users = [inUse(), inUse()];
      const deleted = await api("DELETE", `/orgs/${world.orgId}/teams/${team.body.id}`, { token: world.owner.token });
      stop = true;
      const next = await api("GET", "/inboxes", { token: key.body.raw_key, headers: { "x-forwarded-for": newClientIp() } });
      await Promise.all(users);
      expect({ round, deleted: deleted.status, next: next.status }).toEqual({ round, deleted: 204, next: 401 });
    }
  });

  it("when an org is deleted, then the API keys of its teams are refused with 401 from the moment the DELETE answered", async () => {
    const world = await teamWithDomain(api);
    const key = await newKey(world);
    expect((await api("GET", "/inboxes", { token: key })).status).toBe(200);
    const deleted = await api("DELETE", `/orgs/${world.orgId}`, { token: world.owner.token, body: { password: STRONG_PASSWORD } });
    expect(deleted.status).toBe(200);
    expect((await api("GET", "/inboxes", { token: key, headers: { "x-forwarded-for": newClientIp() } })).status).toBe(401);
  });
});
