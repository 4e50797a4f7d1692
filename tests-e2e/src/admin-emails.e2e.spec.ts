import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { verificationLink } from "./shared-system";
import { System } from "./system";
import { STRONG_PASSWORD, createInbox, newClientIp, teamWithDomain, type Tokens } from "./world";

interface AuthBody {
  user: { id: string; is_system_admin: boolean };
  tokens: Tokens;
}

/**
 * `admin.emails` names who may become a system admin, but only once that address is proven: an
 * address in the list is promoted when its owner follows the verification mail, never by
 * registering it (issue 38). This file runs a fresh system of its own (setup not yet done), whose
 * `admin.emails` lists addresses on a trusted domain this test receives mail on; identity's
 * mailer points at the system's own SMTP intake, so the verification mail lands in an inbox.
 */
describe("admin.emails: a listed address becomes a system admin only once verified", () => {
  const sub = `adm-${randomBytes(3).toString("hex")}`;
  const [first, second, third] = ["first", "second", "third"].map((who) => `root-${who}-${randomBytes(3).toString("hex")}`) as [
    string,
    string,
    string,
  ];
  let system: System;
  let api: ReturnType<typeof apiClient>;
  let mailbox: { token: string; assignmentId: string; domainName: string };

  beforeAll(async () => {
    // the domain is `<sub>.` + the trusted e2e domain, which teamWithDomain(api, sub) creates below
    const domain = `${sub}.e2e.burnbox.test`;
    system = await System.start({
      identity: {
        BB_ADMIN_EMAILS: [first, second, third].map((local) => `${local}@${domain}`).join(","),
        BB_AUTH_ARGON2_MEMORY_KIB: "8192",
      },
    });
    api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api, sub);
    expect(world.domainName).toBe(domain);
    mailbox = {
      token: world.owner.token,
      assignmentId: world.assignmentId,
      domainName: world.domainName,
    };
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  const register = (email: string) =>
    api<AuthBody & { code: string }>("POST", "/auth/register", {
      body: { email, password: STRONG_PASSWORD, display_name: "Root" },
      headers: { "x-forwarded-for": newClientIp() },
    });
  const login = async (email: string) => {
    const r = await api<AuthBody>("POST", "/auth/login", {
      body: { email, password: STRONG_PASSWORD },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(r.status).toBe(200);
    return r.body;
  };
  const adminStatus = async (token: string) => (await api("GET", "/admin/stats", { token })).status;
  const setupCompleted = async () => (await api<{ completed: boolean }>("GET", "/setup/status")).body.completed;
  /** An inbox for the listed address `local`, so its verification mail arrives. */
  const inboxFor = (local: string) => createInbox(api, mailbox.token, mailbox.assignmentId, local);
  /** Follows the newest verification link mailed to the inbox, as its owner would (GET /auth/verify-email/:token). */
  const verify = async (inboxId: string, since: number) => {
    const link = await verificationLink(system.gatewayUrl, mailbox.token, inboxId, new Date(since));
    const token = new URL(link).pathname.split("/").pop()!;
    return api("GET", `/auth/verify-email/${token}`);
  };

  it("when a listed address registers, then it is no admin and setup stays open; once it follows the verification mail, it is one and setup is complete", async () => {
    const inbox = await inboxFor(first);
    const since = Date.now();
    const registered = await register(inbox.full_address);
    expect(registered.status).toBe(201);
    expect(registered.body.user.is_system_admin).toBe(false);
    expect(await adminStatus(registered.body.tokens.access_token)).toBe(403);
    expect(await setupCompleted()).toBe(false);
    // signing in again changes nothing: the address is still unproven
    expect(await adminStatus((await login(inbox.full_address)).tokens.access_token)).toBe(403);

    expect((await verify(inbox.id, since)).status).toBe(200);
    // a change of admin rights ends the sessions opened before it (their tokens say "no admin")
    expect((await api("GET", "/auth/me", { token: registered.body.tokens.access_token })).status).toBe(401);
    const admin = await login(inbox.full_address);
    expect(admin.user.is_system_admin).toBe(true);
    expect(await adminStatus(admin.tokens.access_token)).toBe(200);
    expect(await setupCompleted()).toBe(true);
  });

  it("when a listed account is deleted and the address registers again, then it is no admin until it verifies again", async () => {
    const admin = await login(`${first}@${mailbox.domainName}`);
    const inbox = await inboxFor(second);
    let since = Date.now();
    const once = await register(inbox.full_address);
    expect(once.status).toBe(201);
    expect((await verify(inbox.id, since)).status).toBe(200);
    const promoted = await login(inbox.full_address);
    expect(await adminStatus(promoted.tokens.access_token)).toBe(200);

    expect((await api("DELETE", `/admin/users/${promoted.user.id}`, { token: admin.tokens.access_token })).status).toBe(200);
    since = Date.now();
    const again = await register(inbox.full_address);
    expect(again.status).toBe(201);
    expect(again.body.user.is_system_admin).toBe(false);
    expect(await adminStatus(again.body.tokens.access_token)).toBe(403);
    expect(await adminStatus((await login(inbox.full_address)).tokens.access_token)).toBe(403);
    // the new account's own verification mail promotes it
    expect((await verify(inbox.id, since)).status).toBe(200);
    expect(await adminStatus((await login(inbox.full_address)).tokens.access_token)).toBe(200);
  });

  it("when registration is closed, then a listed address is refused like any other", async () => {
    const admin = await login(`${first}@${mailbox.domainName}`);
    const inbox = await inboxFor(third);
    const close = (allow: boolean) =>
      api("PUT", "/admin/platform", { token: admin.tokens.access_token, body: { allow_registration: allow } });
    expect((await close(false)).status).toBe(200);
    try {
      const refused = await register(inbox.full_address);
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: "forbidden" });
      const stranger = await register(`someone-${randomBytes(3).toString("hex")}@${mailbox.domainName}`);
      expect({ status: stranger.status, code: stranger.body.code }).toEqual({ status: 403, code: "forbidden" });
    } finally {
      expect((await close(true)).status).toBe(200);
    }
    // open again: the address registers, as no admin
    const registered = await register(inbox.full_address);
    expect(registered.status).toBe(201);
    expect(await adminStatus(registered.body.tokens.access_token)).toBe(403);
  });
});
