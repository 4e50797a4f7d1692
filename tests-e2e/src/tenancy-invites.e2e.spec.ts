import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, createInbox, newClientIp, registerAdmin, registerUser, teamWithDomain, type Tokens } from "./world";

interface Invite {
  id: string;
  org_id: string;
  email: string;
  org_role: string;
  team_assignments: Array<{ team_id: string; team_role: string; team_name: string }>;
  invited_by: string;
  status: string;
  expires_at: string;
}
interface Page<T> {
  data: T[];
  total: number;
}
interface Notification {
  type: string;
  data: Record<string, unknown>;
}
type World = Awaited<ReturnType<typeof teamWithDomain>>;

/**
 * Invites through the public ports: the invite mail goes out through identity's mailer to the
 * system's own SMTP intake and is read from an inbox, as the invited person would read it.
 * (Invite links lapse after 20 s on the shared system: BB_INVITES_TTL.)
 */
describe("invites through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  /** An address that receives mail: an inbox of the world's team, read by the world's owner. */
  async function mailbox(world: World) {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `inv-${randomBytes(4).toString("hex")}`);
    return { email: inbox.full_address, inboxId: inbox.id };
  }

  /** The invite link's token from the newest invite mail in the inbox (polls until it arrives). */
  async function inviteToken(world: World, inboxId: string, count = 1): Promise<string> {
    const list = await waitFor(
      async () => {
        const res = await api<Page<{ id: string; subject: string }>>("GET", `/inboxes/${inboxId}/emails`, { token: world.owner.token });
        return res.body.data.length >= count ? res.body.data : null;
      },
      { what: "the invite mail", timeoutMs: 15_000 },
    );
    const newest = list[0]!;
    expect(newest.subject).toContain("invited");
    const email = await api<{ body_text: string }>("GET", `/emails/${newest.id}`, { token: world.owner.token });
    const match = /\/invites\/([0-9a-f]{64})\b/.exec(email.body.body_text);
    if (!match?.[1]) throw new Error(`no invite link in: ${email.body.body_text}`);
    return match[1];
  }

  async function register(email: string, inviteToken?: string) {
    return api<{ user: { id: string; email_verified: boolean }; tokens: Tokens }>("POST", "/auth/register", {
      body: { email, password: STRONG_PASSWORD, display_name: "Invited", ...(inviteToken ? { invite_token: inviteToken } : {}) },
      headers: { "x-forwarded-for": newClientIp() },
    });
  }

  const invite = (world: World, body: Record<string, unknown>, token = world.owner.token) =>
    api<Invite>("POST", `/orgs/${world.orgId}/invites`, { token, body });
  const roleIn = async (orgId: string, token: string) => {
    const me = await api<{ role: string }>("GET", `/orgs/${orgId}/members/me`, { token });
    return me.status === 200 ? me.body.role : null;
  };

  // Made before the other tests and checked after them, so that its 20 s lifetime runs out while
  // they run instead of being waited for.
  let late: Promise<{ world: World; email: string; token: string }>;
  beforeAll(() => {
    late = (async () => {
      const world = await teamWithDomain(api);
      const box = await mailbox(world);
      expect((await invite(world, { email: box.email, org_role: "member" })).status).toBe(201);
      return { world, email: box.email, token: await inviteToken(world, box.inboxId) };
    })();
    late.catch(() => undefined); // reported by the test that awaits it
  });

  it("when an address is invited, then the mail arrives, the link previews without sign-in, and only its addressee joins with the invited roles", async () => {
    const world = await teamWithDomain(api);
    const box = await mailbox(world);
    const created = await invite(world, {
      email: box.email,
      org_role: "admin",
      team_assignments: [{ team_id: world.teamId, team_role: "lead" }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: box.email, org_role: "admin", status: "pending", invited_by: world.owner.userId });
    expect(JSON.stringify(created.body)).not.toMatch(/[0-9a-f]{64}/);
    const token = await inviteToken(world, box.inboxId);

    const preview = await api<Record<string, unknown>>("GET", `/invites/${token}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      email: box.email,
      org_role: "admin",
      team_assignments: [{ team_id: world.teamId, team_role: "lead" }],
    });

    const stranger = await registerUser(api, "stranger");
    const wrong = await api<{ code: string }>("POST", `/invites/${token}/accept`, { token: stranger.token });
    expect(wrong.status).toBe(403);
    expect(await roleIn(world.orgId, stranger.token)).toBeNull();

    const invitee = await register(box.email);
    expect(invitee.status).toBe(201);
    const accepted = await api<{ org: { id: string }; role: string }>("POST", `/invites/${token}/accept`, {
      token: invitee.body.tokens.access_token,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ org: { id: world.orgId }, role: "admin" });
    expect(await roleIn(world.orgId, invitee.body.tokens.access_token)).toBe("admin");
    const team = await api<Page<{ user_id: string; role: string }>>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
      token: world.owner.token,
    });
    expect(team.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: invitee.body.user.id, role: "lead" })]));

    // single use
    expect((await api("POST", `/invites/${token}/accept`, { token: invitee.body.tokens.access_token })).status).toBe(409);
    expect((await api("GET", `/invites/${token}/preview`)).status).toBe(404);
    // accepting proves the address
    await waitFor(
      async () =>
        (await api<{ email_verified: boolean }>("GET", "/auth/me", { token: invitee.body.tokens.access_token })).body.email_verified,
      {
        what: "the invitee's email verified",
      },
    );

    // the inviter hears of it, and the invitee of the team they joined
    const inviterNote = await waitFor(async () => {
      const list = await api<Page<Notification>>("GET", "/notifications", { token: world.owner.token });
      return list.body.data.find((n) => n.type === "invite.accepted");
    });
    expect(inviterNote.data).toEqual({ org_id: world.orgId, invite_id: created.body.id, email: box.email });
    const teamNote = await waitFor(async () => {
      const list = await api<Page<Notification>>("GET", "/notifications", { token: invitee.body.tokens.access_token });
      return list.body.data.find((n) => n.type === "team.member_added");
    });
    expect(teamNote.data).toEqual({ org_id: world.orgId, team_id: world.teamId });

    // audited under member, never with the token
    const audit = await waitFor(async () => {
      const res = await api<Page<{ action: string; category: string }>>("GET", `/orgs/${world.orgId}/audit?category=member`, {
        token: world.owner.token,
      });
      const actions = res.body.data.map((e) => e.action);
      return actions.includes("invite.created") && actions.includes("invite.accepted") ? res.body : null;
    });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("when someone registers with an invite, then they join and their email counts as verified; a bad or used link is a 400", async () => {
    const world = await teamWithDomain(api);
    const box = await mailbox(world);
    expect((await invite(world, { email: box.email, org_role: "member" })).status).toBe(201);
    const token = await inviteToken(world, box.inboxId);

    expect((await register(box.email, "f".repeat(64))).status).toBe(400);
    expect((await register(`other-${randomBytes(3).toString("hex")}@example.test`, token)).status).toBe(400);
    const joined = await register(box.email, token);
    expect(joined.status).toBe(201);
    expect(joined.body.user.email_verified).toBe(true);
    await waitFor(async () => (await roleIn(world.orgId, joined.body.tokens.access_token)) === "member", {
      what: "the registration's membership",
    });
    const list = await api<Page<Invite>>("GET", `/orgs/${world.orgId}/invites?status=accepted`, { token: world.owner.token });
    expect(list.body.data.map((i) => i.email)).toEqual([box.email]);
  });

  it("when an invite is revoked, then its link is refused", async () => {
    const world = await teamWithDomain(api);
    const revokedBox = await mailbox(world);
    const revoked = await invite(world, { email: revokedBox.email, org_role: "member" });
    const revokedToken = await inviteToken(world, revokedBox.inboxId);

    const pending = await api<Page<Invite>>("GET", `/orgs/${world.orgId}/invites`, { token: world.owner.token });
    expect(pending.body.data.map((i) => i.email)).toEqual([revokedBox.email]);
    expect((await api("DELETE", `/orgs/${world.orgId}/invites/${revoked.body.id}`, { token: world.owner.token })).status).toBe(200);
    expect((await api("DELETE", `/orgs/${world.orgId}/invites/${randomUUID()}`, { token: world.owner.token })).status).toBe(404);
    expect((await api("GET", `/invites/${revokedToken}/preview`)).status).toBe(404);
    const revokedUser = await register(revokedBox.email);
    expect((await api("POST", `/invites/${revokedToken}/accept`, { token: revokedUser.body.tokens.access_token })).status).toBe(404);
  });

  it("when addresses are invited in bulk, then duplicates, members and pending invites are skipped with their reasons", async () => {
    const world = await teamWithDomain(api);
    const box = await mailbox(world);
    const pendingEmail = `pending-${randomBytes(3).toString("hex")}@example.test`;
    expect(
      (await api("POST", `/orgs/${world.orgId}/members`, { token: world.owner.token, body: { email: pendingEmail, org_role: "member" } }))
        .status,
    ).toBe(201);
    const res = await api<{ created: Invite[]; skipped: Array<{ email: string; reason: string }> }>(
      "POST",
      `/orgs/${world.orgId}/invites/bulk`,
      {
        token: world.owner.token,
        body: { emails: [box.email, box.email, world.owner.email, pendingEmail], org_role: "member" },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.created.map((i) => i.email)).toEqual([box.email]);
    expect(res.body.skipped).toHaveLength(3);
    expect(res.body.skipped).toEqual(
      expect.arrayContaining([
        { email: box.email, reason: "duplicate_in_request" },
        { email: world.owner.email, reason: "already_member" },
        { email: pendingEmail, reason: "already_invited" },
      ]),
    );
    await inviteToken(world, box.inboxId);
    const tooMany = Array.from({ length: 51 }, (_, i) => `n${i}@example.test`);
    expect(
      (await api("POST", `/orgs/${world.orgId}/invites/bulk`, { token: world.owner.token, body: { emails: tooMany, org_role: "member" } }))
        .status,
    ).toBe(400);
  });

  it("when an admin invites above their rank, a member invites at all or a user is added directly, then the rank and permission rules hold", async () => {
    const world = await teamWithDomain(api);
    const admin = await registerUser(api, "admin");
    const member = await registerUser(api, "member");
    const add = (userId: string, role: string) =>
      api("POST", `/orgs/${world.orgId}/members/add`, { token: world.owner.token, body: { user_id: userId, role } });
    expect((await add(admin.userId, "admin")).status).toBe(201);
    expect((await add(admin.userId, "member")).status).toBe(409);
    expect((await add(randomUUID(), "member")).status).toBe(404);
    expect((await add(member.userId, "member")).status).toBe(201);
    const email = `rank-${randomBytes(3).toString("hex")}@example.test`;
    expect((await invite(world, { email, org_role: "owner" }, admin.token)).status).toBe(403);
    expect((await invite(world, { email, org_role: "admin" }, admin.token)).status).toBe(201);
    expect((await invite(world, { email, org_role: "member" }, member.token)).status).toBe(403);
    expect((await invite(world, { email: member.email, org_role: "member" })).status).toBe(409);
    const outsider = await registerUser(api, "outsider");
    expect((await invite(world, { email, org_role: "member" }, outsider.token)).status).toBe(404);
    expect((await api("GET", `/orgs/${world.orgId}/invites`, { token: outsider.token })).status).toBe(404);
  });

  it("when a team has inboxes, mail, a webhook and a key, then the impacts count them; a system admin moves the domain to another org and its inbox there stops", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `imp-${randomBytes(3).toString("hex")}`);
    await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "count me", text: "x" });
    const hook = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token: world.owner.token,
      body: { url: "http://127.0.0.1:9/hook", events: ["email.received"] },
    });
    expect(hook.status).toBe(201);
    const key = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "ci", scopes: ["team.inboxes.view"] },
    });
    expect(key.status).toBe(201);

    const team = await waitFor(
      async () => {
        const res = await api<Record<string, number>>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/impact`, {
          token: world.owner.token,
        });
        const b = res.body;
        return b.webhook_count === 1 && b.api_key_count === 1 && b.email_count === 1 && b.active_inbox_count === 1 ? b : null;
      },
      { what: "the team's impact counts" },
    );
    expect(team).toEqual({
      member_count: 1,
      inbox_count: 1,
      active_inbox_count: 1,
      email_count: 1,
      domain_assignment_count: 1,
      webhook_count: 1,
      api_key_count: 1,
    });
    const domains = await api<Page<{ id: string }>>("GET", `/orgs/${world.orgId}/domains`, { token: world.owner.token });
    const domainId = domains.body.data[0]!.id;
    const impact = await api<Record<string, unknown>>("GET", `/orgs/${world.orgId}/domains/${domainId}/impact`, {
      token: world.owner.token,
    });
    expect(impact.body).toEqual({
      active_inboxes: 1,
      total_inboxes: 1,
      total_emails: 1,
      assignments: [{ team_id: world.teamId, team_name: "QA", access_level: "full" }],
      webhooks_affected: 1,
    });

    const target = await api<{ id: string }>("POST", "/orgs", { token: world.owner.token, body: { name: "Target Org" } });
    const transfer = (token: string, targetOrgId = target.body.id) =>
      api<{ domain: { org_id: string }; removed_assignments: number; deactivated_inboxes: number }>(
        "POST",
        `/orgs/${world.orgId}/domains/${domainId}/transfer`,
        { token, body: { target_org_id: targetOrgId } },
      );
    expect((await transfer(world.owner.token)).status).toBe(403);
    const root = await registerAdmin(api, system);
    expect((await transfer(root.token, randomUUID())).status).toBe(404);
    const moved = await transfer(root.token);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ domain: { org_id: target.body.id }, removed_assignments: 1, deactivated_inboxes: 1 });
    expect((await api("GET", `/orgs/${world.orgId}/domains/${domainId}`, { token: world.owner.token })).status).toBe(404);
    expect((await api("GET", `/orgs/${target.body.id}/domains/${domainId}`, { token: world.owner.token })).status).toBe(200);
    const assignments = await api<Page<unknown>>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/domains`, { token: world.owner.token });
    expect(assignments.body.total).toBe(0);
    // the old org's inbox on it is deactivated: no longer active, and the intake refuses its mail
    await waitFor(
      async () => (await api<{ is_active: boolean }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.is_active === false,
      {
        what: "the inbox on the moved domain to be deactivated",
      },
    );
    const refused = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "late", text: "x" });
    expect(refused.rcpt.code).toBe(550);
  });

  it("when an invite has expired, then its link is refused and it is listed as expired", async () => {
    const { world, email, token } = await late;
    expect((await api<Page<Invite>>("GET", `/orgs/${world.orgId}/invites`, { token: world.owner.token })).status).toBe(200);
    // the shared system's invites live 20 s, counted from before this file's first test; each poll
    // from a client IP of its own (4 a second would exhaust one IP's unauthenticated 60 a minute)
    const preview = () => api("GET", `/invites/${token}/preview`, { headers: { "x-forwarded-for": newClientIp() } });
    await waitFor(async () => (await preview()).status === 404, {
      what: "the invite to expire",
      timeoutMs: 40_000,
      intervalMs: 250,
    });
    expect((await register(email, token)).status).toBe(400);
    const expired = await api<Page<Invite>>("GET", `/orgs/${world.orgId}/invites?status=expired`, { token: world.owner.token });
    expect(expired.body.data.map((i) => i.email)).toEqual([email]);
  }, 60_000);
});
