import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { NAME_MASK, signupMail } from "./snapshot-mail";
import { createInbox, registerUser, teamWithDomain } from "./world";

type Link = { url: string; text: string; kind: string };
type Comparison = {
  id: string;
  match: boolean;
  snapshot: string;
  subject: { baseline: string; actual: string; equal: boolean };
  from: { baseline: string; actual: string; equal: boolean };
  text: { equal: boolean; diff: Array<{ lines: string[] }> };
  links: { added: Link[]; removed: Link[]; changed: Array<{ path: string; changes: string[] }> };
  visual: Array<{ width: number; scheme: string; changed_ratio: number; baseline_url: string; actual_url: string; diff_url: string }>;
};
type Snapshot = {
  id: string;
  name: string;
  email_id: string;
  subject: string;
  text: string;
  links: Link[];
  latest_comparison: Comparison | null;
};

/**
 * Mail snapshots (extensions section 12) through the public ports: the same template mailed twice
 * with different codes, link tokens, dates and names matches its baseline; a removed link, a
 * changed dark-mode button and a broken variable do not, each named; the operations' CRUD, the
 * name's uniqueness, permissions and scopes, and foreign and unknown ids.
 */
describe("mail snapshots", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inbox: { id: string; full_address: string };
  let team: string;
  const tag = randomBytes(3).toString("hex");
  let sent = 0;

  beforeAll(async () => {
    world = await teamWithDomain(api);
    inbox = await createInbox(api, world.owner.token, world.assignmentId, `signup-${tag}`);
    team = `/orgs/${world.orgId}/teams/${world.teamId}`;
  });

  async function deliver(raw: string, to = inbox, token = world.owner.token): Promise<string> {
    const before = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${to.id}/emails?per_page=100`, { token });
    const known = new Set(before.body.data.map((e) => e.id));
    const smtp = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${to.full_address}>`)).code).toBe(250);
      expect((await smtp.data(raw)).code).toBe(250);
    } finally {
      await smtp.quit();
    }
    sent++;
    return waitFor(
      async () => {
        const list = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${to.id}/emails?per_page=100`, { token });
        return list.body.data.find((e) => !known.has(e.id))?.id ?? null;
      },
      { what: `mail number ${sent}` },
    );
  }

  const compare = (emailId: string, snapshot: string, token = world.owner.token) =>
    api<Comparison>("POST", `/emails/${emailId}/compare`, { token, body: { snapshot } });

  let baselineEmail: string;
  let snapshot: Snapshot;

  it("when a snapshot is made from a sign-up mail, then it keeps the masked subject, text and links and answers 201", async () => {
    baselineEmail = await deliver(
      signupMail(inbox.full_address, { name: "Alice", code: "482913", token: "tok_9f8e7d6c5b4a3f2e1d0c", date: "2026-12-02 09:15" }),
    );
    const res = await api<Snapshot>("POST", `${team}/snapshots`, {
      token: world.owner.token,
      body: { name: `signup-${tag}`, email_id: baselineEmail, masks: [NAME_MASK] },
    });
    expect(res.status).toBe(201);
    snapshot = res.body;
    expect(snapshot).toMatchObject({
      name: `signup-${tag}`,
      email_id: baselineEmail,
      subject: "Welcome to Acme, [name]",
      latest_comparison: null,
    });
    expect(snapshot.text).toContain("Your verification code is [code].");
    expect(snapshot.text).toContain("Sent [date]");
    expect(snapshot.links.map((l) => l.url)).toEqual([
      "https://app.acme.test/verify?token=[value]&uid=[value]",
      "https://app.acme.test/help",
    ]);
  });

  it("when the same template is mailed again with another code, token, date and name, then it matches and every changed ratio is 0", async () => {
    const id = await deliver(
      signupMail(inbox.full_address, { name: "Bob", code: "105377", token: "tok_00112233445566778899", date: "2026-12-09 17:42" }),
    );
    const res = await compare(id, `signup-${tag}`);
    expect(res.status).toBe(200);
    expect(res.body.text.diff).toEqual([]);
    expect(res.body.links).toEqual({ added: [], removed: [], changed: [] });
    expect(res.body.subject).toEqual({ baseline: "Welcome to Acme, [name]", actual: "Welcome to Acme, [name]", equal: true });
    expect(res.body.from.equal).toBe(true);
    for (const v of res.body.visual) expect([v.width, v.scheme, v.changed_ratio]).toEqual([v.width, v.scheme, 0]);
    expect(res.body.match).toBe(true);
    // the comparison is the snapshot's latest
    const got = await api<Snapshot>("GET", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token });
    expect(got.body.latest_comparison?.id).toBe(res.body.id);
  });

  it("when the help link is removed, then it does not match and the link is named removed", async () => {
    const id = await deliver(
      signupMail(inbox.full_address, {
        name: "Carol",
        code: "777001",
        token: "tok_aabbccddeeff00112233",
        date: "2026-12-10 08:00",
        help: false,
      }),
    );
    const res = await compare(id, `signup-${tag}`);
    expect(res.body.match).toBe(false);
    expect(res.body.links.removed).toEqual([{ url: "https://app.acme.test/help", text: "Help centre", kind: "other" }]);
    expect(res.body.links.added).toEqual([]);
    expect(res.body.text.equal).toBe(true);
    // the picture lost a line at every width and in both schemes
    expect(res.body.visual).toHaveLength(4);
    for (const v of res.body.visual) expect(v.changed_ratio).toBeGreaterThan(0);
  });

  it("when the button's colour changes in dark mode only, then the dark pictures differ, the light ones are 0 and the structure is equal", async () => {
    const id = await deliver(
      signupMail(inbox.full_address, {
        name: "Alice",
        code: "640022",
        token: "tok_0a1b2c3d4e5f60718293",
        date: "2026-12-10 09:30",
        darkButton: "#111111",
      }),
    );
    const res = await compare(id, `signup-${tag}`);
    expect(res.status).toBe(200);
    expect(res.body.match).toBe(false);
    expect([res.body.subject.equal, res.body.from.equal, res.body.text.equal]).toEqual([true, true, true]);
    expect(res.body.links).toEqual({ added: [], removed: [], changed: [] });
    const byScheme = (scheme: string) => res.body.visual.filter((v) => v.scheme === scheme);
    expect(byScheme("light").map((v) => [v.width, v.changed_ratio])).toEqual([
      [600, 0],
      [375, 0],
    ]);
    expect(byScheme("dark").map((v) => v.width)).toEqual([600, 375]);
    for (const v of byScheme("dark")) expect(v.changed_ratio).toBeGreaterThan(0);
    // the diff picture of a changed render is a PNG served under the snapshot
    const dark = byScheme("dark")[0]!;
    const diff = await fetch(`${system.gatewayUrl}${dark.diff_url}`, { headers: { authorization: `Bearer ${world.owner.token}` } });
    expect([diff.status, diff.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(
      Buffer.from(await diff.arrayBuffer())
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");
  });

  it("when a variable is left unfilled, then subject and text differ and the hunk shows {{name}} against the baseline", async () => {
    const id = await deliver(
      signupMail(inbox.full_address, { name: "{{name}}", code: "318822", token: "tok_ffeeddccbbaa99887766", date: "2026-12-11 10:30" }),
    );
    const res = await compare(id, `signup-${tag}`);
    expect(res.body.match).toBe(false);
    expect(res.body.subject).toEqual({ baseline: "Welcome to Acme, [name]", actual: "Welcome to Acme, {{name}}", equal: false });
    expect(res.body.text.equal).toBe(false);
    expect(res.body.text.diff.flatMap((h) => h.lines)).toEqual(expect.arrayContaining(["-Hi [name],", "+Hi {{name}},"]));
    expect(res.body.links).toEqual({ added: [], removed: [], changed: [] });
  });

  it("when the name is taken in the team, then 409 and the list by name has the one snapshot", async () => {
    const again = await api<{ code: string }>("POST", `${team}/snapshots`, {
      token: world.owner.token,
      body: { name: `signup-${tag}`, email_id: baselineEmail },
    });
    expect([again.status, again.body.code]).toEqual([409, "conflict"]);
    const list = await api<{ data: Snapshot[]; total: number }>("GET", `${team}/snapshots?name=signup-${tag}`, {
      token: world.owner.token,
    });
    expect([list.status, list.body.total, list.body.data.map((s) => s.id)]).toEqual([200, 1, [snapshot.id]]);
  });

  it("when a mask is not valid RE2 or the body is wrong, then 400 in the error envelope", async () => {
    const bad = await api<{ code: string; error: string }>("POST", `${team}/snapshots`, {
      token: world.owner.token,
      body: { name: `bad-${tag}`, email_id: baselineEmail, masks: [{ pattern: "(?<=x)y" }] },
    });
    expect([bad.status, bad.body.code]).toEqual([400, "validation_error"]);
    expect(bad.body.error).toContain("masks[0].pattern");
    const noName = await api("POST", `${team}/snapshots`, { token: world.owner.token, body: { email_id: baselineEmail } });
    expect(noName.status).toBe(400);
    const ratio = await api("POST", `/emails/${baselineEmail}/compare`, {
      token: world.owner.token,
      body: { snapshot: `signup-${tag}`, max_changed_ratio: 2 },
    });
    expect(ratio.status).toBe(400);
  });

  it("when a snapshot is re-baselined from the broken mail and deleted, then it compares against the new baseline and then is gone", async () => {
    const broken = await deliver(
      signupMail(inbox.full_address, { name: "{{name}}", code: "900100", token: "tok_1234567890abcdef1234", date: "2026-12-12 11:11" }),
    );
    const put = await api<Snapshot>("PUT", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token, body: { email_id: broken } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ email_id: broken, subject: "Welcome to Acme, {{name}}", latest_comparison: null });
    const other = await deliver(
      signupMail(inbox.full_address, { name: "{{name}}", code: "900200", token: "tok_abcdef1234567890abcd", date: "2026-12-13 12:12" }),
    );
    expect((await compare(other, `signup-${tag}`)).body.match).toBe(true);
    // the baseline outlives its email
    expect((await api("DELETE", `/emails/${broken}`, { token: world.owner.token })).status).toBe(204);
    expect((await compare(other, `signup-${tag}`)).body.match).toBe(true);
    expect((await api("DELETE", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token })).status).toBe(204);
    expect((await api("GET", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token })).status).toBe(404);
    expect((await compare(other, `signup-${tag}`)).status).toBe(404);
    expect((await api("DELETE", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token })).status).toBe(404);
  });

  it("when a team member without team.snapshots.manage or an API key without its scope writes, then 403; reading takes team.emails.view", async () => {
    const made = await api<Snapshot>("POST", `${team}/snapshots`, {
      token: world.owner.token,
      body: { name: `perm-${tag}`, email_id: baselineEmail },
    });
    expect(made.status).toBe(201);
    const member = await registerUser(api, "member");
    expect(
      (
        await api("POST", `/orgs/${world.orgId}/members/add`, {
          token: world.owner.token,
          body: { user_id: member.userId, role: "member" },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api("POST", `${team}/members`, { token: world.owner.token, body: { user_id: member.userId, role: "member" } })).status,
    ).toBe(201);
    const refused = await api<{ code: string }>("POST", `${team}/snapshots`, {
      token: member.token,
      body: { name: `m-${tag}`, email_id: baselineEmail },
    });
    expect([refused.status, refused.body.code]).toEqual([403, "forbidden"]);
    expect((await api("DELETE", `${team}/snapshots/${made.body.id}`, { token: member.token })).status).toBe(403);
    expect((await api("GET", `${team}/snapshots/${made.body.id}`, { token: member.token })).status).toBe(200);

    const viewKey = await api<{ raw_key: string }>("POST", `${team}/api-keys`, {
      token: world.owner.token,
      body: { name: "view", scopes: ["team.emails.view"] },
    });
    const writeKey = await api<{ raw_key: string }>("POST", `${team}/api-keys`, {
      token: world.owner.token,
      body: { name: "write", scopes: ["team.emails.view", "team.snapshots.manage"] },
    });
    expect(writeKey.status).toBe(201);
    expect(
      (await api("POST", `${team}/snapshots`, { token: viewKey.body.raw_key, body: { name: `k-${tag}`, email_id: baselineEmail } })).status,
    ).toBe(403);
    expect((await api("GET", `${team}/snapshots`, { token: viewKey.body.raw_key })).status).toBe(200);
    expect((await compare(baselineEmail, `perm-${tag}`, viewKey.body.raw_key)).body.match).toBe(true);
    const byKey = await api("POST", `${team}/snapshots`, {
      token: writeKey.body.raw_key,
      body: { name: `k-${tag}`, email_id: baselineEmail },
    });
    expect(byKey.status).toBe(201);
  });

  it("when ids are foreign or unknown, then every operation answers 404 alike; the same name is free in another team", async () => {
    const other = await teamWithDomain(api);
    const otherTeam = `/orgs/${other.orgId}/teams/${other.teamId}`;
    const made = await api<Snapshot>("POST", `${team}/snapshots`, {
      token: world.owner.token,
      body: { name: `f-${tag}`, email_id: baselineEmail },
    });
    // another team's snapshot id under the caller's own team, and under the other team's path
    const foreignId = made.body.id;
    const unknownId = randomUUID();
    for (const sid of [foreignId, unknownId]) {
      expect((await api("GET", `${otherTeam}/snapshots/${sid}`, { token: other.owner.token })).status).toBe(404);
      expect((await api("DELETE", `${otherTeam}/snapshots/${sid}`, { token: other.owner.token })).status).toBe(404);
    }
    // the other owner on this team's path: the team is not theirs
    expect((await api("GET", `${team}/snapshots`, { token: other.owner.token })).status).toBe(404);
    // a team under another org's path
    expect((await api("GET", `/orgs/${other.orgId}/teams/${world.teamId}/snapshots`, { token: world.owner.token })).status).toBe(404);
    // a snapshot made from another team's email, and a comparison of a foreign email
    const foreignEmail = await api<{ code: string }>("POST", `${otherTeam}/snapshots`, {
      token: other.owner.token,
      body: { name: `x-${tag}`, email_id: baselineEmail },
    });
    expect(foreignEmail.status).toBe(404);
    expect((await compare(baselineEmail, `f-${tag}`, other.owner.token)).status).toBe(404);
    expect((await compare(randomUUID(), `f-${tag}`)).status).toBe(404);
    // a name is unique per team only: the other team makes its own `f-…` from its own mail
    const otherInbox = await createInbox(api, other.owner.token, other.assignmentId, `signup-${tag}`);
    const theirs = await deliver(
      signupMail(otherInbox.full_address, { name: "Bob", code: "246810", token: "tok_13579bdf2468ace02468", date: "2026-12-14 14:14" }),
      otherInbox,
      other.owner.token,
    );
    const same = await api<Snapshot>("POST", `${otherTeam}/snapshots`, {
      token: other.owner.token,
      body: { name: `f-${tag}`, email_id: theirs },
    });
    expect([same.status, same.body.name]).toEqual([201, `f-${tag}`]);
    expect(same.body.id).not.toBe(foreignId);
  });
});
