import { createHash, randomUUID } from "node:crypto";
import { RpcName, type Actor, type LookedUpUser, type z, type SendInviteMailRequest } from "@burnbox/contracts";
import { newEvent, rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { auditsOf, deliver, handledThrough, orgTeamDomain, startTenancy, type Tenancy } from "./support";

type Mail = z.infer<typeof SendInviteMailRequest>["mails"][number];
type InviteBody = { id: string; email: string; org_role: string; status: string; team_assignments: unknown[]; invited_by: string };
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * Invites on the real Postgres and NATS, with identity played by a stand-in that answers the
 * user directory and records the invite mails it is asked to send (as identity's mailer would).
 */
describe("invites", () => {
  let t: Tenancy;
  const users = new Map<string, LookedUpUser>();
  const mails: Mail[] = [];
  let identity: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();

  const known = (actor: Actor): Actor => {
    users.set(actor.user_id, { id: actor.user_id, email: actor.email, display_name: "U", last_login_at: null });
    return actor;
  };
  const mailTo = async (email: string): Promise<Mail> => waitFor(() => [...mails].reverse().find((m) => m.email === email));
  const outbox = async (type: string, orgId: string) =>
    (
      await t.infra.pool!.query<{ payload: { data: Record<string, unknown> } }>(
        `SELECT payload FROM outbox_events WHERE payload->>'type' = $1 AND payload->>'org_id' = $2 ORDER BY created_at`,
        [type, orgId],
      )
    ).rows.map((r) => r.payload.data);

  beforeAll(async () => {
    t = await startTenancy();
    identity = [
      serveRpc(
        t.infra.nc,
        t.ns,
        RpcName.lookupUsers,
        (req) =>
          Promise.resolve({
            users: [...users.values()].filter(
              (u) => req.user_ids.includes(u.id) || req.emails.map((e) => e.toLowerCase()).includes(u.email),
            ),
          }),
        t.infra.logger,
      ),
      serveRpc(
        t.infra.nc,
        t.ns,
        RpcName.sendInviteMail,
        (req) => {
          mails.push(...req.mails);
          return Promise.resolve({ queued: req.mails.length });
        },
        t.infra.logger,
      ),
    ];
    known(owner);
  });
  afterAll(async () => {
    await Promise.all(identity.map((s) => s.stop()));
    await t?.stop();
  });

  it("when an address is invited, then the link is mailed, only its hash is stored, and the right user joins with the invited roles", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const invitee = known(makeActor());
    const res = await t.call<InviteBody>("POST", `/orgs/${orgId}/invites`, {
      actor: owner,
      body: { email: invitee.email.toUpperCase(), org_role: "admin", team_assignments: [{ team_id: teamId, team_role: "lead" }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: invitee.email, org_role: "admin", status: "pending", invited_by: owner.user_id });
    expect(res.body.team_assignments).toEqual([{ team_id: teamId, team_role: "lead", team_name: "Checkout" }]);
    const mail = await mailTo(invitee.email);
    expect(mail.token).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(res.body)).not.toContain(mail.token);
    const stored = await t.infra.pool!.query<{ token_hash: string }>("SELECT token_hash FROM invites WHERE id = $1", [res.body.id]);
    expect(stored.rows[0]?.token_hash).toBe(sha256(mail.token));

    const preview = await t.call<Record<string, unknown>>("GET", `/invites/${mail.token}/preview`, { actor: null });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ email: invitee.email, org_name: "Acme QA", org_role: "admin" });

    const stranger = known(makeActor());
    expect((await t.call("POST", `/invites/${mail.token}/accept`, { actor: stranger })).status).toBe(403);
    const accepted = await t.call<{ org: { id: string }; role: string }>("POST", `/invites/${mail.token}/accept`, { actor: invitee });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ org: { id: orgId }, role: "admin" });
    const me = await t.call<{ role: string }>("GET", `/orgs/${orgId}/members/me`, { actor: invitee });
    expect(me.body.role).toBe("admin");
    const teamMembers = await t.call<{ data: Array<{ user_id: string; role: string }> }>("GET", `/orgs/${orgId}/teams/${teamId}/members`, {
      actor: owner,
    });
    expect(teamMembers.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: invitee.user_id, role: "lead" })]));

    // single use: the link is spent
    expect((await t.call("POST", `/invites/${mail.token}/accept`, { actor: invitee })).status).toBe(409);
    expect((await t.call("GET", `/invites/${mail.token}/preview`, { actor: null })).status).toBe(404);

    expect(await outbox("invite.accepted", orgId)).toEqual([
      { org_id: orgId, invite_id: res.body.id, email: invitee.email, user_id: invitee.user_id, invited_by: owner.user_id },
    ]);
    expect(await outbox("team.member_added", orgId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: invitee.user_id, team_id: teamId, added_by: owner.user_id })]),
    );
    const audits = (await auditsOf(t, orgId)).map((a) => a.event.data).filter((d) => d.action.startsWith("invite."));
    expect(audits.map((a) => a.action)).toEqual(["invite.created", "invite.accepted"]);
    expect(JSON.stringify(audits)).not.toContain(mail.token);
    expect(JSON.stringify(audits)).not.toContain(sha256(mail.token));
  });

  it("when an address is invited again, then the new invite replaces the pending one and the old link stops working", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const email = `again-${randomUUID().slice(0, 8)}@example.test`;
    await t.call("POST", `/orgs/${orgId}/members`, { actor: owner, body: { email, org_role: "member" } });
    const first = await mailTo(email);
    const second = await t.call<InviteBody>("POST", `/orgs/${orgId}/invites`, { actor: owner, body: { email, org_role: "admin" } });
    expect(second.status).toBe(201);
    await waitFor(() => mails.filter((m) => m.email === email).length === 2);
    expect((await t.call("GET", `/invites/${first.token}/preview`, { actor: null })).status).toBe(404);
    const pending = await t.call<{ data: InviteBody[]; total: number }>("GET", `/orgs/${orgId}/invites`, { actor: owner });
    expect(pending.body.data.map((i) => i.id)).toEqual([second.body.id]);
    const revoked = await t.call<{ total: number }>("GET", `/orgs/${orgId}/invites?status=revoked`, { actor: owner });
    expect(revoked.body.total).toBe(1);
  });

  it("when an invite expires or is revoked, then preview and accept answer 404, and revoking twice is a conflict", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const late = known(makeActor());
    const gone = known(makeActor());
    const lateInvite = await t.call<InviteBody>("POST", `/orgs/${orgId}/invites`, {
      actor: owner,
      body: { email: late.email, org_role: "member" },
    });
    const goneInvite = await t.call<InviteBody>("POST", `/orgs/${orgId}/invites`, {
      actor: owner,
      body: { email: gone.email, org_role: "member" },
    });
    const lateMail = await mailTo(late.email);
    const goneMail = await mailTo(gone.email);
    await t.infra.pool!.query("UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = $1", [lateInvite.body.id]);
    expect((await t.call("GET", `/invites/${lateMail.token}/preview`, { actor: null })).status).toBe(404);
    expect((await t.call("POST", `/invites/${lateMail.token}/accept`, { actor: late })).status).toBe(404);
    const expired = await t.call<{ data: InviteBody[] }>("GET", `/orgs/${orgId}/invites?status=expired`, { actor: owner });
    expect(expired.body.data.map((i) => [i.id, i.status])).toEqual([[lateInvite.body.id, "expired"]]);

    expect((await t.call("DELETE", `/orgs/${orgId}/invites/${goneInvite.body.id}`, { actor: owner })).status).toBe(200);
    expect((await t.call("POST", `/invites/${goneMail.token}/accept`, { actor: gone })).status).toBe(404);
    expect((await t.call("DELETE", `/orgs/${orgId}/invites/${goneInvite.body.id}`, { actor: owner })).status).toBe(409);
    expect((await t.call("DELETE", `/orgs/${orgId}/invites/${randomUUID()}`, { actor: owner })).status).toBe(404);
    expect((await t.call("GET", `/orgs/${orgId}/members/me`, { actor: late })).status).toBe(404);
  });

  it("when addresses are invited in bulk, then duplicates, members and pending invites are skipped with their reasons", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const fresh = `fresh-${randomUUID().slice(0, 8)}@example.test`;
    const pending = `pending-${randomUUID().slice(0, 8)}@example.test`;
    await t.call("POST", `/orgs/${orgId}/invites`, { actor: owner, body: { email: pending, org_role: "member" } });
    const res = await t.call<{ created: InviteBody[]; skipped: Array<{ email: string; reason: string }> }>(
      "POST",
      `/orgs/${orgId}/invites/bulk`,
      {
        actor: owner,
        body: { emails: [fresh, fresh, owner.email, pending], org_role: "member" },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.created.map((i) => i.email)).toEqual([fresh]);
    expect(res.body.skipped).toEqual(
      expect.arrayContaining([
        { email: fresh, reason: "duplicate_in_request" },
        { email: owner.email, reason: "already_member" },
        { email: pending, reason: "already_invited" },
      ]),
    );
    expect(res.body.skipped).toHaveLength(3);
    await mailTo(fresh);
  });

  it("when an admin invites above their own rank or names a team of another org, then it is refused and nothing is sent", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const other = await orgTeamDomain(t, owner);
    const admin = known(makeActor());
    await t.call("POST", `/orgs/${orgId}/members/add`, { actor: owner, body: { user_id: admin.user_id, role: "admin" } });
    const email = `rank-${randomUUID().slice(0, 8)}@example.test`;
    expect((await t.call("POST", `/orgs/${orgId}/invites`, { actor: admin, body: { email, org_role: "owner" } })).status).toBe(403);
    const foreignTeam = { email, org_role: "member", team_assignments: [{ team_id: other.teamId, team_role: "member" }] };
    expect((await t.call("POST", `/orgs/${orgId}/invites`, { actor: admin, body: foreignTeam })).status).toBe(404);
    expect((await t.call("POST", `/orgs/${orgId}/invites`, { actor: admin, body: { email, org_role: "admin" } })).status).toBe(201);
    expect(mails.filter((m) => m.email === email)).toHaveLength(1);
    const member = known(makeActor());
    await t.call("POST", `/orgs/${orgId}/members/add`, { actor: owner, body: { user_id: member.user_id, role: "member" } });
    expect((await t.call("POST", `/orgs/${orgId}/invites`, { actor: member, body: { email, org_role: "member" } })).status).toBe(403);
    expect((await t.call("POST", `/orgs/${orgId}/invites`, { actor: makeActor(), body: { email, org_role: "member" } })).status).toBe(404);
  });

  it("when a user registers with an invite, then identity's check passes and the invite.redeemed event makes them a member, once", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const email = `reg-${randomUUID().slice(0, 8)}@example.test`;
    await t.call("POST", `/orgs/${orgId}/invites`, { actor: owner, body: { email, org_role: "member" } });
    const { token } = await mailTo(email);
    const check = (e: string, hash = sha256(token)) => rpcRequest(t.infra.nc, t.ns, RpcName.checkInvite, { token_hash: hash, email: e });
    expect(await check(email)).toEqual({ problem: null });
    expect(await check("someone@else.test")).toEqual({ problem: "email_mismatch" });
    expect(await check(email, sha256("nope"))).toEqual({ problem: "not_found" });

    const user = known(makeActor({ email }));
    const event = newEvent("invite.redeemed", {
      org_id: null,
      team_id: null,
      data: { user_id: user.user_id, email, token_hash: sha256(token) },
    });
    await handledThrough(t, "tenancy-invite-redeemed", await deliver(t, event));
    expect((await t.call<{ role: string }>("GET", `/orgs/${orgId}/members/me`, { actor: user })).body.role).toBe("member");
    await handledThrough(t, "tenancy-invite-redeemed", await deliver(t, event));
    expect(await outbox("invite.accepted", orgId)).toHaveLength(1);
    expect(await check(email)).toEqual({ problem: "already_accepted" });
  });

  it("when webhooks and keys are audited and a domain moves, then the impact counts follow and the transfer drops the assignments", async () => {
    // the inbox service's side: this domain holds no inboxes
    const inboxService = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.domainInboxCounts,
      (req) => Promise.resolve({ counts: req.domain_ids.map((id) => ({ domain_id: id, active_inboxes: 0, total_inboxes: 0 })) }),
      t.infra.logger,
    );
    try {
      await domainImpactAndTransfer();
    } finally {
      await inboxService.stop();
    }
  });

  async function domainImpactAndTransfer() {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    await t.call("POST", `/orgs/${orgId}/teams/${teamId}/domains`, { actor: owner, body: { domain_id: domain.id } });
    const audit = (action: string, metadata: Record<string, unknown> = {}) =>
      newEvent("audit.recorded", {
        org_id: orgId,
        team_id: teamId,
        data: {
          action,
          actor_user_id: owner.user_id,
          actor_api_key_id: null,
          target_type: "x",
          target_id: null,
          ip_address: null,
          metadata,
        },
      });
    let seq = 0;
    for (const e of [
      audit("webhook.created"),
      audit("webhook.created"),
      audit("webhook.deleted"),
      audit("apikey.created"),
      audit("apikey.created"),
    ])
      seq = await deliver(t, e);
    const bulk = audit("apikey.bulk_revoked", { key_ids: [randomUUID()] });
    await deliver(t, bulk);
    seq = await deliver(t, bulk); // a redelivery counts once
    await handledThrough(t, "tenancy-team-resource-counts", seq);
    const team = await t.call<Record<string, number>>("GET", `/orgs/${orgId}/teams/${teamId}/impact`, { actor: owner });
    expect(team.body).toMatchObject({ member_count: 1, domain_assignment_count: 1, webhook_count: 1, api_key_count: 1 });
    const impact = await t.call<Record<string, unknown>>("GET", `/orgs/${orgId}/domains/${domain.id}/impact`, { actor: owner });
    expect(impact.body).toEqual({
      active_inboxes: 0,
      total_inboxes: 0,
      total_emails: 0,
      assignments: [{ team_id: teamId, team_name: "Checkout", access_level: "full" }],
      webhooks_affected: 1,
    });

    const target = await orgTeamDomain(t, owner);
    const admin = makeActor({ is_system_admin: true });
    // the inbox service, asked to deactivate the inboxes on it before the answer (read your writes)
    const deactivations: Array<{ domain_id: string; from_org_id: string }> = [];
    const inboxService = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.deactivateDomainInboxes,
      (req) => {
        deactivations.push({ domain_id: req.domain_id, from_org_id: req.from_org_id });
        return Promise.resolve({});
      },
      t.infra.logger,
    );
    let moved;
    try {
      moved = await t.call<{ domain: { org_id: string }; removed_assignments: number; deactivated_inboxes: number }>(
        "POST",
        `/orgs/${orgId}/domains/${domain.id}/transfer`,
        { actor: admin, body: { target_org_id: target.orgId } },
      );
    } finally {
      await inboxService.stop();
    }
    expect(moved.status).toBe(200);
    expect(deactivations).toEqual([{ domain_id: domain.id, from_org_id: orgId }]);
    expect(moved.body).toMatchObject({ domain: { org_id: target.orgId }, removed_assignments: 1, deactivated_inboxes: 0 });
    expect((await t.call("GET", `/orgs/${orgId}/domains/${domain.id}`, { actor: owner })).status).toBe(404);
    expect((await t.call("GET", `/orgs/${target.orgId}/domains/${domain.id}`, { actor: owner })).status).toBe(200);
    const again = { actor: admin, body: { target_org_id: randomUUID() } };
    expect((await t.call("POST", `/orgs/${target.orgId}/domains/${domain.id}/transfer`, again)).status).toBe(404);
    expect(await outbox("domain.transferred", orgId)).toEqual([
      expect.objectContaining({ domain_id: domain.id, from_org_id: orgId, to_org_id: target.orgId, removed_team_ids: [teamId] }),
    ]);
  }
});
