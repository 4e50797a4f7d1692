import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, deliverOk, openSocket } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain, type Api } from "./world";

type Envelope = { error: string; code: string };
type Page<T> = { data: T[]; total: number };
interface InboxBody {
  id: string;
  full_address: string;
  smtp_behaviour?: unknown;
}
interface EmailBody {
  id: string;
  subject: string;
  attachments: Array<{ id: string; filename: string }>;
}

/** A message with one text attachment, so downloads and files have something to refuse. */
const deliver = (port: number, to: string, subject: string): Promise<void> =>
  deliverOk(
    port,
    "sender@example.org",
    to,
    buildMessage({
      from: "sender@example.org",
      to,
      subject,
      html: true,
      text: '<p>Open <a href="https://example.org/confirm">the link</a></p>',
      file: { name: "notes.txt", content: "private notes" },
    }),
  );

/** A member of the org and of its team, with the system roles given. */
async function member(api: Api, world: Awaited<ReturnType<typeof teamWithDomain>>, label: string, orgRole = "member", teamRole = "member") {
  const user = await registerUser(api, label);
  const added = await api("POST", `/orgs/${world.orgId}/members/add`, {
    token: world.owner.token,
    body: { user_id: user.userId, role: orgRole },
  });
  if (added.status !== 201) throw new Error(`org member: ${added.status} ${JSON.stringify(added.body)}`);
  if (teamRole) {
    const joined = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
      token: world.owner.token,
      body: { user_id: user.userId, role: teamRole },
    });
    if (joined.status !== 201) throw new Error(`team member: ${joined.status} ${JSON.stringify(joined.body)}`);
  }
  return user;
}

/** The team's assignment path of its one domain (assignments are addressed by the domain's id). */
async function assignmentPath(api: Api, world: Awaited<ReturnType<typeof teamWithDomain>>): Promise<string> {
  const base = `/orgs/${world.orgId}/teams/${world.teamId}/domains`;
  const listed = await api<Page<{ id: string; domain_id: string }>>("GET", base, { token: world.owner.token });
  const found = listed.body.data.find((a) => a.id === world.assignmentId);
  if (!found) throw new Error(`no assignment ${world.assignmentId} in ${JSON.stringify(listed.body)}`);
  return `${base}/${found.domain_id}`;
}

/**
 * The `create_inbox` access level of a domain assignment (contract notes: "create; read own"):
 * a member sees only the inboxes they created on it; another member's answers exactly as an
 * unknown id does, in every operation on the inbox and its mail; org owners and admins see all.
 */
describe("inboxes on a create_inbox assignment", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let a: Awaited<ReturnType<typeof registerUser>>;
  let b: Awaited<ReturnType<typeof registerUser>>;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let inboxA: InboxBody;
  let inboxB: InboxBody;
  let emailA: EmailBody;
  let emailB: EmailBody;

  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;

  async function received(token: string, inbox: InboxBody, subject: string): Promise<EmailBody> {
    const wait = await api<{ data: Array<{ id: string }>; timed_out: boolean }>(
      "GET",
      `/inboxes/${inbox.id}/emails/wait?subject=${encodeURIComponent(subject)}&timeout=30s`,
      { token },
    );
    const id = wait.body.data[0]?.id;
    if (wait.status !== 200 || !id) throw new Error(`no email "${subject}" in ${inbox.full_address}: ${JSON.stringify(wait.body)}`);
    return (await api<EmailBody>("GET", `/emails/${id}`, { token })).body;
  }

  beforeAll(async () => {
    world = await teamWithDomain(api);
    const patched = await api("PATCH", await assignmentPath(api, world), {
      token: world.owner.token,
      body: { access_level: "create_inbox" },
    });
    expect(patched).toMatchObject({ status: 200, body: { access_level: "create_inbox" } });
    a = await member(api, world, "member-a");
    b = await member(api, world, "member-b");
    admin = await member(api, world, "org-admin", "admin", "");
    inboxA = await createInbox(api, a.token, world.assignmentId, alias("a"));
    inboxB = await createInbox(api, b.token, world.assignmentId, alias("b"));
    await deliver(system.ports.smtp, inboxA.full_address, "for a");
    await deliver(system.ports.smtp, inboxB.full_address, "for b");
    emailA = await received(a.token, inboxA, "for a");
    emailB = await received(b.token, inboxB, "for b");
  });

  /** Every operation on an inbox and its mail, by the ids it names (a stand-in id for what it does not know). */
  const operations = (inbox: string, email: string, attachment: string) =>
    [
      ["GET", `/inboxes/${inbox}`, undefined],
      ["GET", `/inboxes/${inbox}/emails`, undefined],
      ["GET", `/inboxes/${inbox}/emails?q=for`, undefined],
      ["GET", `/inboxes/${inbox}/emails/wait?timeout=1s`, undefined],
      ["GET", `/inboxes/${inbox}/smtp-log`, undefined],
      ["PATCH", `/inboxes/${inbox}`, { smtp_behaviour: { reject_rcpt: { code: 550, message: "taken over" } } }],
      ["POST", `/inboxes/${inbox}/extend`, {}],
      ["POST", `/inboxes/${inbox}/emails/mark-all-read`, undefined],
      ["GET", `/emails/${email}`, undefined],
      ["PATCH", `/emails/${email}`, { is_read: true }],
      ["GET", `/emails/${email}/raw`, undefined],
      ["GET", `/emails/${email}/attachments/${attachment}`, undefined],
      ["GET", `/emails/${email}/transcript`, undefined],
      ["GET", `/emails/${email}/html-check`, undefined],
      ["POST", `/emails/${email}/link-check`, undefined],
      ["GET", `/files?key=${encodeURIComponent(`${inbox}/${email}/${attachment}`)}`, undefined],
      ["DELETE", `/emails/${email}`, undefined],
      ["DELETE", `/inboxes/${inbox}`, undefined],
    ] as const;

  /** Asserts each operation answers `token` on A's inbox and mail exactly as on unknown ids: 404. */
  async function refusedLikeUnknown(token: string) {
    const attachment = emailA.attachments[0]?.id ?? "";
    const real = operations(inboxA.id, emailA.id, attachment);
    const unknown = operations(randomUUID(), randomUUID(), randomUUID());
    for (const [i, [method, path, body]] of real.entries()) {
      const [, unknownPath, unknownBody] = unknown[i]!;
      const got = await api<Envelope>(method, path, { token, ...(body !== undefined ? { body } : {}) });
      const expected = await api<Envelope>(method, unknownPath, { token, ...(unknownBody !== undefined ? { body: unknownBody } : {}) });
      expect({ method, path, status: got.status, body: got.body }).toEqual({ method, path, status: 404, body: expected.body });
    }
  }

  it("when member B acts on member A's inbox or its mail, then every operation answers 404 as for an unknown id and nothing changes", async () => {
    await refusedLikeUnknown(b.token);
    const inbox = await api<InboxBody>("GET", `/inboxes/${inboxA.id}`, { token: a.token });
    expect(inbox).toMatchObject({ status: 200, body: { id: inboxA.id, smtp_behaviour: null } });
    const mail = await api<{ is_read: boolean }>("GET", `/emails/${emailA.id}`, { token: a.token });
    expect(mail.status).toBe(200);
    const listed = await api<Page<{ id: string; is_read: boolean }>>("GET", `/inboxes/${inboxA.id}/emails`, { token: a.token });
    expect(listed.body.data.map((e) => e.id)).toEqual([emailA.id]);
    // B's own inbox and mail answer B
    expect((await api("GET", `/emails/${emailB.id}/raw`, { token: b.token })).status).toBe(200);
    const own = await api<Page<{ id: string }>>("GET", `/inboxes/${inboxB.id}/emails?q=for`, { token: b.token });
    expect(own.body.data.map((e) => e.id)).toEqual([emailB.id]);
  });

  it("when a team lead, or their API key, acts on member A's inbox, then 404 as for B; the lead's own inbox answers the key", async () => {
    // a team lead is no org owner or admin: the assignment keeps them to their own inboxes too
    const lead = await member(api, world, "team-lead", "member", "lead");
    await refusedLikeUnknown(lead.token);
    const own = await createInbox(api, lead.token, world.assignmentId, alias("lead"));
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: lead.token,
      body: {
        name: "lead's key",
        scopes: ["team.inboxes.view", "team.inboxes.manage", "team.emails.view", "team.emails.manage"],
      },
    });
    expect(key.status).toBe(201);
    await refusedLikeUnknown(key.body.raw_key);
    expect((await api("GET", `/inboxes/${own.id}`, { token: key.body.raw_key })).status).toBe(200);
    const listed = await api<Page<InboxBody>>("GET", "/inboxes", { token: key.body.raw_key });
    expect(listed.body.data.map((i) => i.id)).toEqual([own.id]);
    expect((await api("DELETE", `/inboxes/${own.id}`, { token: key.body.raw_key })).status).toBe(204);
  });

  it("when member B lists inboxes, then A's inbox is not among them, in every list, and the totals agree", async () => {
    for (const path of ["/inboxes", `/inboxes?team_id=${world.teamId}`, `/orgs/${world.orgId}/teams/${world.teamId}/inboxes`]) {
      const listedB = await api<Page<InboxBody>>("GET", path, { token: b.token });
      expect({ path, ids: listedB.body.data.map((i) => i.id), total: listedB.body.total }).toEqual({ path, ids: [inboxB.id], total: 1 });
      const listedA = await api<Page<InboxBody>>("GET", path, { token: a.token });
      expect({ path, ids: listedA.body.data.map((i) => i.id), total: listedA.body.total }).toEqual({ path, ids: [inboxA.id], total: 1 });
    }
    const searched = await api<Page<InboxBody>>("GET", `/inboxes?q=${encodeURIComponent(inboxA.full_address.split("@")[0]!)}`, {
      token: b.token,
    });
    expect(searched.body.data).toEqual([]);
  });

  it("when member B opens A's inbox stream, then the upgrade is refused with 404; A's own stream opens", async () => {
    const ticketB = await api<{ ticket: string }>("POST", "/ws/ticket", { token: b.token });
    expect(ticketB.status).toBe(201);
    await expect(openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inboxA.id}?ticket=${ticketB.body.ticket}`)).rejects.toThrow(
      "upgrade refused: 404",
    );
    const ticketA = await api<{ ticket: string }>("POST", "/ws/ticket", { token: a.token });
    const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inboxA.id}?ticket=${ticketA.body.ticket}`);
    socket.ws.close();
  });

  it("when the org owner or an org admin reads, then they see every member's inbox and its mail", async () => {
    for (const token of [world.owner.token, admin.token]) {
      const listed = await api<Page<InboxBody>>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/inboxes`, { token });
      expect(listed.body.data.map((i) => i.id).sort()).toEqual([inboxA.id, inboxB.id].sort());
      const all = await api<Page<InboxBody>>("GET", `/inboxes?team_id=${world.teamId}`, { token });
      expect(all.body.data.map((i) => i.id).sort()).toEqual([inboxA.id, inboxB.id].sort());
      expect((await api("GET", `/inboxes/${inboxA.id}`, { token })).status).toBe(200);
      expect((await api("GET", `/emails/${emailA.id}/raw`, { token })).status).toBe(200);
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token });
      const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inboxA.id}?ticket=${ticket.body.ticket}`);
      socket.ws.close();
    }
    const behaviour = { reject_rcpt: { code: 550, message: "closed" } };
    const patched = await api<InboxBody>("PATCH", `/inboxes/${inboxB.id}`, { token: admin.token, body: { smtp_behaviour: behaviour } });
    expect(patched).toMatchObject({ status: 200, body: { smtp_behaviour: behaviour } });
    expect((await api("PATCH", `/inboxes/${inboxB.id}`, { token: admin.token, body: { smtp_behaviour: null } })).status).toBe(200);
  });

  it("when member A acts on their own inbox, then every operation answers as before", async () => {
    const waited = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inboxA.id}/emails/wait?timeout=1s`, { token: a.token });
    expect(waited).toMatchObject({ status: 200, body: { data: [{ id: emailA.id }] } });
    for (const path of [`/emails/${emailA.id}/raw`, `/emails/${emailA.id}/transcript`, `/emails/${emailA.id}/html-check`]) {
      expect({ path, status: (await api("GET", path, { token: a.token })).status }).toEqual({ path, status: 200 });
    }
    const attachment = emailA.attachments[0]?.id ?? "";
    expect((await api("GET", `/emails/${emailA.id}/attachments/${attachment}`, { token: a.token })).status).toBe(200);
    expect((await api("PATCH", `/emails/${emailA.id}`, { token: a.token, body: { is_read: true } })).status).toBe(200);
  });

  it("when the assignment becomes full, then the team's members see each other's inboxes again", async () => {
    const other = await teamWithDomain(api);
    const path = await assignmentPath(api, other);
    await api("PATCH", path, { token: other.owner.token, body: { access_level: "create_inbox" } });
    const c = await member(api, other, "member-c");
    const d = await member(api, other, "member-d");
    const inboxC = await createInbox(api, c.token, other.assignmentId, alias("c"));
    expect((await api("GET", `/inboxes/${inboxC.id}`, { token: d.token })).status).toBe(404);
    expect((await api("PATCH", path, { token: other.owner.token, body: { access_level: "full" } })).status).toBe(200);
    await waitFor(async () => (await api("GET", `/inboxes/${inboxC.id}`, { token: d.token })).status === 200);
    const listed = await api<Page<InboxBody>>("GET", "/inboxes", { token: d.token });
    expect(listed.body.data.map((i) => i.id)).toEqual([inboxC.id]);
  });

  it("when the org owner deletes member A's inbox, then 204", async () => {
    const extra = await createInbox(api, a.token, world.assignmentId, alias("gone"));
    expect((await api("DELETE", `/inboxes/${extra.id}`, { token: world.owner.token })).status).toBe(204);
    expect((await api("GET", `/inboxes/${extra.id}`, { token: a.token })).status).toBe(404);
  });
});

/** The SMTP log shows senders and Message-IDs: reading it takes `team.emails.view` (extensions section 8). */
describe("an inbox's SMTP log", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  it("when a key or a member holds team.inboxes.view but not team.emails.view, then 403; with it, 200", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `log-${randomBytes(3).toString("hex")}`);
    const keyPath = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const viewer = await api<{ raw_key: string }>("POST", keyPath, {
      token: world.owner.token,
      body: { name: "inbox viewer", scopes: ["team.inboxes.view"] },
    });
    const reader = await api<{ raw_key: string }>("POST", keyPath, {
      token: world.owner.token,
      body: { name: "mail reader", scopes: ["team.inboxes.view", "team.emails.view"] },
    });
    const log = `/inboxes/${inbox.id}/smtp-log`;
    expect((await api("GET", `/inboxes/${inbox.id}`, { token: viewer.body.raw_key })).status).toBe(200);
    const refused = await api<Envelope>("GET", log, { token: viewer.body.raw_key });
    expect(refused).toMatchObject({ status: 403, body: { error: "insufficient scope", code: "forbidden" } });
    expect((await api("GET", log, { token: reader.body.raw_key })).status).toBe(200);

    // a member whose team role grants inbox views but no mail
    const sysAdmin = await registerAdmin(api, system);
    const role = `inbox_viewer_${randomBytes(3).toString("hex")}`;
    const created = await api("POST", "/admin/roles", {
      token: sysAdmin.token,
      body: { scope: "team", value: role, label: "Inbox viewer", rank: 5, permissions: ["team.view", "team.inboxes.view"] },
    });
    expect(created.status).toBe(201);
    const user = await member(api, world, "inbox-viewer", "member", role);
    expect((await api("GET", `/inboxes/${inbox.id}`, { token: user.token })).status).toBe(200);
    const forbidden = await api<Envelope>("GET", log, { token: user.token });
    expect(forbidden).toMatchObject({ status: 403, body: { error: "insufficient permissions", code: "forbidden" } });
  });
});
