import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, deliverOk, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, createInbox, registerAdmin, registerUser, teamWithDomain, type Api } from "./world";

interface Page<T> {
  data: T[];
  total: number;
}

/**
 * Deleting a team or an org removes its data in every service (issue #12): inboxes, mail and
 * attachment bytes (inbox), webhooks and their deliveries (webhook-dispatcher), API keys
 * (identity), each from tenancy's `team.deleted` / `org.deleted` event. Afterwards every read
 * through the gateway is 404, mail to the inbox is refused and the key is 401. A system admin
 * (who bypasses RBAC while the org exists) sees the team's data gone, not merely hidden.
 */
describe("deleting a team or an org removes its data everywhere", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);
  let admin: { token: string };

  beforeAll(async () => {
    admin = await registerAdmin(api, system);
  });

  /** A team with an inbox holding a mail with an attachment, a webhook and an API key, all readable. */
  async function populatedTeam() {
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const inbox = await createInbox(api, token, world.assignmentId, `cas-${randomBytes(3).toString("hex")}`);
    const to = inbox.full_address;
    const file = { name: "secret.txt", content: "the secret bytes" };
    await deliverOk(
      system.ports.smtp,
      "sender@example.org",
      to,
      buildMessage({ from: "sender@example.org", to, subject: "cascade", text: "See the file.", file }),
    );
    const email = await waitFor(
      async () => (await api<Page<{ id: string }>>("GET", `/inboxes/${inbox.id}/emails`, { token })).body.data[0],
      { what: "the mail to arrive" },
    );
    const full = await api<{ attachments: Array<{ id: string }> }>("GET", `/emails/${email.id}`, { token });
    expect(full.status).toBe(200);
    const attachmentId = full.body.attachments[0]!.id;
    const webhooksPath = `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`;
    const hook = await api<{ id: string }>("POST", webhooksPath, {
      token,
      body: { url: "https://hooks.example.com/cascade", events: ["email.received"] },
    });
    expect(hook.status).toBe(201);
    const keysPath = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const key = await api<{ id: string; raw_key: string }>("POST", keysPath, {
      token,
      body: { name: "ci", scopes: ["team.inboxes.view", "team.emails.view"] },
    });
    expect(key.status).toBe(201);
    expect((await api("GET", `/inboxes/${inbox.id}`, { token: key.body.raw_key })).status).toBe(200);
    expect((await api("GET", `/emails/${email.id}/attachments/${attachmentId}`, { token })).status).toBe(200);
    return { world, token, inbox, emailId: email.id, attachmentId, webhooksPath, hookId: hook.body.id, keysPath, key: key.body };
  }

  type Populated = Awaited<ReturnType<typeof populatedTeam>>;

  /** Every read of the team's data through the public ports, once the services have caught up. */
  async function expectGone(p: Populated, opts: { adminSees: boolean }) {
    // the API key is refused as unknown: it no longer exists (401, not 403)
    const keyed = await waitFor(
      async () => {
        const r = await api<{ error: string; code: string }>("GET", `/inboxes/${p.inbox.id}`, { token: p.key.raw_key });
        return r.status === 401 ? r : null;
      },
      { what: "the API key to be gone", timeoutMs: 15_000 },
    );
    expect(keyed.body).toEqual({ error: "invalid API key", code: "unauthenticated" });
    // mail to the inbox is refused: the inbox is gone from the intake's view too
    await waitFor(
      async () =>
        (await sendMail(system.ports.smtp, { from: "a@example.org", to: p.inbox.full_address, subject: "late", text: "x" })).rcpt.code ===
        550,
      {
        what: "the inbox to refuse mail",
        timeoutMs: 15_000,
      },
    );
    for (const path of [
      `/inboxes/${p.inbox.id}`,
      `/inboxes/${p.inbox.id}/emails`,
      `/emails/${p.emailId}`,
      `/emails/${p.emailId}/attachments/${p.attachmentId}`,
      `/emails/${p.emailId}/raw`,
    ]) {
      const r = await api<{ code: string }>("GET", path, { token: p.token });
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(r.body.code).toBe("not_found");
    }
    expect((await api("GET", `${p.webhooksPath}/${p.hookId}/deliveries`, { token: p.token })).status).toBe(404);
    expect((await api("GET", `${p.keysPath}/${p.key.id}`, { token: p.token })).status).toBe(404);
    if (opts.adminSees) {
      // the org still exists, so a system admin passes RBAC: what they see is what is stored
      await waitFor(async () => (await api<Page<unknown>>("GET", p.webhooksPath, { token: admin.token })).body.data?.length === 0, {
        what: "the webhooks to be deleted",
        timeoutMs: 15_000,
      });
      await waitFor(
        async () => (await api<Page<unknown>>("GET", `${p.keysPath}?include_revoked=true`, { token: admin.token })).body.data?.length === 0,
        {
          what: "the API keys to be deleted",
          timeoutMs: 15_000,
        },
      );
      expect((await api("GET", `/inboxes/${p.inbox.id}`, { token: admin.token })).status).toBe(404);
      expect((await api("GET", `/emails/${p.emailId}/attachments/${p.attachmentId}`, { token: admin.token })).status).toBe(404);
    }
  }

  it("when a team is deleted, then its inbox, mail, attachment, webhook and API key are gone: reads 404, mail 550, the key 401", async () => {
    const p = await populatedTeam();
    const sibling = await api<{ id: string }>("POST", `/orgs/${p.world.orgId}/teams`, { token: p.token, body: { name: "Stays" } });
    expect(sibling.status).toBe(201);
    const del = await api("DELETE", `/orgs/${p.world.orgId}/teams/${p.world.teamId}`, { token: p.token });
    expect(del.status).toBe(204);
    await expectGone(p, { adminSees: true });
    // the org and its other team are untouched
    expect((await api("GET", `/orgs/${p.world.orgId}/teams/${sibling.body.id}`, { token: p.token })).status).toBe(200);
  });

  it("when an org is deleted, then the data of its teams is gone in every service", async () => {
    const p = await populatedTeam();
    const del = await api("DELETE", `/orgs/${p.world.orgId}`, { token: p.token, body: { password: STRONG_PASSWORD } });
    expect(del.status).toBe(200);
    await expectGone(p, { adminSees: false });
    expect((await api("GET", `/orgs/${p.world.orgId}`, { token: admin.token })).status).toBe(404);
  });

  it("when another team's data exists, then deleting one team leaves it readable", async () => {
    const gone = await populatedTeam();
    const kept = await populatedTeam();
    expect((await api("DELETE", `/orgs/${gone.world.orgId}/teams/${gone.world.teamId}`, { token: gone.token })).status).toBe(204);
    await expectGone(gone, { adminSees: true });
    expect((await api("GET", `/inboxes/${kept.inbox.id}`, { token: kept.key.raw_key })).status).toBe(200);
    expect((await api("GET", `/emails/${kept.emailId}/attachments/${kept.attachmentId}`, { token: kept.token })).status).toBe(200);
    expect((await api("GET", `${kept.webhooksPath}/${kept.hookId}/deliveries`, { token: kept.token })).status).toBe(200);
  });
});

/** Issue #12: a custom team role's new permission key becomes a valid API-key scope at once (contract notes, Roles). */
describe("a custom team permission as an API-key scope", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);
  /** Lower-case letters only: permission keys allow no digits. */
  const letters = () => Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join("");

  it("when a custom team role adds a permission key, then keys may carry it at once; a key no role has is 400; a scope not held is 403", async () => {
    const admin = await registerAdmin(api, system);
    const world = await teamWithDomain(api);
    const custom = `team.reports.${letters()}`;
    const keysPath = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const before = await api<{ error: string }>("POST", keysPath, { token: world.owner.token, body: { name: "r", scopes: [custom] } });
    expect(before.status).toBe(400);
    const value = `reporter_${letters()}`;
    const role = await api("POST", "/admin/roles", {
      token: admin.token,
      body: {
        scope: "team",
        value,
        label: "Reporter",
        rank: 15,
        permissions: ["team.view", "team.apikeys.view", "team.apikeys.manage", custom],
      },
    });
    expect(role.status).toBe(201);
    // the org owner acts on every team of the org: they hold the new key too
    const byOwner = await api<{ scopes: string[] }>("POST", keysPath, {
      token: world.owner.token,
      body: { name: "r", scopes: [custom, "team.view"] },
    });
    expect(byOwner.status).toBe(201);
    expect(byOwner.body.scopes).toEqual([custom, "team.view"]);
    expect(
      (await api("POST", keysPath, { token: world.owner.token, body: { name: "r", scopes: [`team.reports.${letters()}`] } })).status,
    ).toBe(400);
    // a team member with the custom role: the role's own keys, nothing beyond
    const reporter = await registerUser(api, "reporter");
    expect(
      (
        await api("POST", `/orgs/${world.orgId}/members/add`, {
          token: world.owner.token,
          body: { user_id: reporter.userId, role: "member" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
          token: world.owner.token,
          body: { user_id: reporter.userId, role: value },
        })
      ).status,
    ).toBe(201);
    expect((await api("POST", keysPath, { token: reporter.token, body: { name: "mine", scopes: [custom] } })).status).toBe(201);
    expect(
      (await api("POST", keysPath, { token: reporter.token, body: { name: "more", scopes: [custom, "team.inboxes.create"] } })).status,
    ).toBe(403);
  });
});

/** Issue #12: `max_inboxes_per_domain` counts active inboxes, checked atomically (contract notes, TTL cascade). */
describe("max_inboxes_per_domain through the gateway", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);

  it("when two creates race at the limit, then exactly one wins and the other is 409; an expired-and-removed inbox frees its place", async () => {
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const set = await api("PATCH", `/orgs/${world.orgId}/settings`, { token, body: { max_inboxes_per_domain: 2 } });
    expect(set.status).toBe(200);
    const create = (ttl?: string) =>
      api<{ id: string; error?: string; code?: string }>("POST", "/inboxes", {
        token,
        body: { domain_assignment_id: world.assignmentId, ...(ttl ? { ttl } : {}) },
      });
    const first = await create("2s");
    expect(first.status).toBe(201);
    const raced = await Promise.all([create(), create()]);
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(raced.find((r) => r.status === 409)?.body).toEqual({ error: "inbox limit reached for this domain (2)", code: "conflict" });
    // the short-lived one lapses: it no longer counts, and one more fits
    const again = await waitFor(
      async () => {
        const r = await create();
        return r.status === 201 ? r : null;
      },
      { what: "the expired inbox to stop counting", timeoutMs: 15_000, intervalMs: 500 },
    );
    expect(again.status).toBe(201);
    expect((await create()).status).toBe(409);
  });
});

/** Issue #12: a team transferred to another org takes its data along (`team.transferred`). */
describe("a team transferred to another org", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);

  it("when a system admin moves a team, then its inbox, webhook and API key are found under the new org by its owner", async () => {
    const admin = await registerAdmin(api, system);
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const inbox = await createInbox(api, token, world.assignmentId, `mv-${randomBytes(3).toString("hex")}`);
    const hook = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token,
      body: { url: "https://hooks.example.com/moved", events: ["email.received"] },
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
    // the new org's owner acts on every team of it: once each service re-filed the team's rows, they are theirs
    await waitFor(async () => (await api("GET", `/inboxes/${inbox.id}`, { token: target.token })).status === 200, {
      what: "the inbox under the new org",
      timeoutMs: 15_000,
    });
    await waitFor(
      async () => (await api<Page<{ id: string }>>("GET", `${team}/webhooks`, { token: target.token })).body.data?.[0]?.id === hook.body.id,
      { what: "the webhook under the new org", timeoutMs: 15_000 },
    );
    await waitFor(async () => (await api("GET", `${team}/api-keys/${key.body.id}`, { token: target.token })).status === 200, {
      what: "the API key under the new org",
      timeoutMs: 15_000,
    });
    // the old org no longer reaches them
    expect((await api("GET", `/inboxes/${inbox.id}`, { token })).status).toBe(404);
    expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys/${key.body.id}`, { token })).status).toBe(404);
  });
});
