import { createHash, randomBytes, randomUUID } from "node:crypto";
import { RpcName, subjects, type CheckInviteReply, type RedeemInviteRequest } from "@burnbox/contracts";
import { newEvent, serveRpc } from "@burnbox/service-kit/messaging";
import { waitFor } from "@burnbox/test-kit";
import { PASSWORD, startIdentity } from "./support";

type Identity = Awaited<ReturnType<typeof startIdentity>>;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * Registration with an invite, on the real Postgres and NATS, with tenancy's invite check and
 * redemption played by stand-ins that know two invites (token, address).
 */
describe("registering with an invite", () => {
  let t: Identity;
  const invited = `invited-${randomBytes(4).toString("hex")}@example.test`;
  const token = randomBytes(32).toString("hex");
  const later = `later-${randomBytes(4).toString("hex")}@example.test`;
  const laterToken = randomBytes(32).toString("hex");
  let checkInvite: { stop(): Promise<void> };
  let redeemInvite: { stop(): Promise<void> } | undefined;
  const redeemed: Array<RedeemInviteRequest & { userExisted: boolean }> = [];

  beforeAll(async () => {
    t = await startIdentity();
    checkInvite = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.checkInvite,
      (req): Promise<CheckInviteReply> => {
        const email = req.token_hash === sha256(token) ? invited : req.token_hash === sha256(laterToken) ? later : null;
        if (email === null) return Promise.resolve({ problem: "not_found" });
        return Promise.resolve({ problem: req.email === email ? null : "email_mismatch" });
      },
      t.infra.logger,
    );
    redeemInvite = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.redeemInvite,
      async (req) => {
        // tenancy is asked after the account committed: it can already be found
        redeemed.push({ ...req, userExisted: (await userCount(req.email)) === 1 });
        return { outcome: "member" as const };
      },
      t.infra.logger,
    );
  });
  afterAll(async () => {
    await redeemInvite?.stop();
    await checkInvite?.stop();
    await t?.stop();
  });

  const register = (email: string, inviteToken?: string) =>
    t.call<{ user: { id: string; email_verified: boolean } }>("POST", "/auth/register", {
      actor: null,
      body: { email, password: PASSWORD, display_name: "Invited", ...(inviteToken ? { invite_token: inviteToken } : {}) },
    });
  const redeemedEvents = async () =>
    (
      await t.infra.pool!.query<{ payload: { data: Record<string, unknown> } }>(
        "SELECT payload FROM outbox_events WHERE payload->>'type' = 'invite.redeemed' ORDER BY created_at",
      )
    ).rows.map((r) => r.payload.data);
  const userCount = async (email: string) =>
    Number((await t.infra.pool!.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE email = $1", [email])).rows[0]?.n);

  it("when the invite is unknown or sent to another address, then registration is a 400 and no account is made", async () => {
    const other = `other-${randomBytes(4).toString("hex")}@example.test`;
    expect((await register(other, token)).status).toBe(400);
    expect((await register(invited, "e".repeat(64))).status).toBe(400);
    expect((await register(invited, "not-a-token")).status).toBe(400);
    expect(await userCount(other)).toBe(0);
    expect(await userCount(invited)).toBe(0);
    expect(await redeemedEvents()).toEqual([]);
  });

  it("when the invite matches, then the account is made with its email verified and invite.redeemed carries the token's hash, never the token", async () => {
    const res = await register(invited, token);
    expect(res.status).toBe(201);
    expect(res.body.user.email_verified).toBe(true);
    const events = await redeemedEvents();
    expect(events).toEqual([{ user_id: res.body.user.id, email: invited, token_hash: sha256(token) }]);
    // and tenancy redeemed it before the answer (read your writes)
    expect(redeemed).toEqual([{ user_id: res.body.user.id, email: invited, token_hash: sha256(token), userExisted: true }]);
    const raw = await t.infra.pool!.query<{ n: string }>("SELECT count(*) AS n FROM outbox_events WHERE payload::text LIKE $1", [
      `%${token}%`,
    ]);
    expect(Number(raw.rows[0]?.n)).toBe(0);
  });

  it("when tenancy cannot redeem the invite, then registration is a 503, and the account and its invite.redeemed event stand", async () => {
    await redeemInvite?.stop();
    redeemInvite = undefined;
    const res = await register(later, laterToken);
    expect(res.status).toBe(503);
    expect(await userCount(later)).toBe(1);
    expect(await redeemedEvents()).toContainEqual(expect.objectContaining({ email: later, token_hash: sha256(laterToken) }));
  }, 15_000);

  it("when tenancy reports an invite accepted, then the account's email counts as verified", async () => {
    const email = `plain-${randomBytes(4).toString("hex")}@example.test`;
    const res = await register(email);
    expect(res.body.user.email_verified).toBe(false);
    const event = newEvent("invite.accepted", {
      org_id: randomUUID(),
      team_id: null,
      data: { org_id: randomUUID(), invite_id: randomUUID(), email, user_id: res.body.user.id, invited_by: randomUUID() },
    });
    await t.infra.js.publish(subjects(t.ns).event(event.type), JSON.stringify(event), { msgID: event.id });
    await waitFor(
      async () =>
        (await t.infra.pool!.query<{ v: boolean }>("SELECT email_verified AS v FROM users WHERE id = $1", [res.body.user.id])).rows[0]?.v,
      { what: "the email verified" },
    );
  });
});
