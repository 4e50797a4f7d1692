import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { createInbox, newClientIp, teamWithDomain } from "./world";

interface DkimRecord {
  selector: string;
  name: string;
  type: "TXT";
  value: string;
}
interface Domain {
  id: string;
  domain_name: string;
  status: string;
  dkim_verified: boolean;
  dkim_record: DkimRecord | null;
  verification_record: string;
  mx_target: string;
}
type Queued = { outbound_id: string; message_id: string };
type Refusal = { error: string; code: string; retry_after?: number };
type Summary = { id: string; subject: string };
type EmailView = {
  id: string;
  subject: string;
  headers: Record<string, string>;
  authentication: { dkim: Array<{ result: string; domain: string; selector: string }> } | null;
};
type OutboundEntry = {
  id: string;
  message_id: string;
  at: string;
  kind: "release" | "reply" | "send";
  to: string[];
  subject: string;
  status: "queued" | "sent" | "failed";
  attempts: number;
  last_reply: string | null;
};

type AuditEntry = { action: string; actor_id: string | null; resource_id: string | null; metadata: Record<string, unknown> };

/** Extensions 10's default `outbound.max_per_hour`, which the shared system keeps. */
const MAX_PER_HOUR = 100;

/**
 * Mail out (extensions section 10) through the public ports: a team's own domain, verified through
 * the suite's DNS server, which also publishes the domain's DKIM key (the TXT record GET shows);
 * inbox A sends to inbox B and B replies and releases back, each message DKIM-signed by the
 * platform and delivered through its own SMTP intake, whose authentication checks verify the
 * signature against that DNS. Then every refusal the contract names.
 */
describe("mail out: send, reply and release between inboxes, DKIM-signed", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let dns: Awaited<ReturnType<typeof testDns>>;
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let domain: Domain;
  let a: { id: string; full_address: string };
  let b: { id: string; full_address: string };
  const tag = randomBytes(3).toString("hex");
  /** Refused calls speak from an address of their own (the runner's per-IP bucket stays free). */
  const refusedIp = newClientIp();

  const orgPath = () => `/orgs/${world.orgId}`;
  const addDomain = async (label: string) => {
    const res = await api<Domain>("POST", `${orgPath()}/domains`, {
      token: world.owner.token,
      body: { domain_name: `${label}-${tag}.mail-out.e2e.test` },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const verify = async (d: Domain) => (await api<Domain>("POST", `${orgPath()}/domains/${d.id}/verify`, { token: world.owner.token })).body;
  const assign = async (d: Domain) => {
    const res = await api<{ id: string }>("POST", `${orgPath()}/teams/${world.teamId}/domains`, {
      token: world.owner.token,
      body: { domain_id: d.id },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const send = (inboxId: string, body: Record<string, unknown>, token = world.owner.token, headers: Record<string, string> = {}) =>
    api<Queued & Refusal>("POST", `/inboxes/${inboxId}/send`, { token, body, headers });
  async function received(inboxId: string, subject: string, token = world.owner.token): Promise<EmailView> {
    const summary = await waitFor(
      async () => {
        const list = await api<{ data: Summary[] }>("GET", `/inboxes/${inboxId}/emails`, { token });
        return list.body.data.find((e) => e.subject === subject) ?? null;
      },
      { what: `the mail "${subject}"` },
    );
    const email = await api<EmailView>("GET", `/emails/${summary.id}`, { token });
    expect(email.status).toBe(200);
    return email.body;
  }
  const rawOf = async (emailId: string) => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/emails/${emailId}/raw`, {
      headers: { authorization: `Bearer ${world.owner.token}` },
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const outbound = async (inboxId: string) => {
    const res = await api<{ data: OutboundEntry[]; total: number }>("GET", `/inboxes/${inboxId}/outbound`, { token: world.owner.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const settled = (inboxId: string, id: string) =>
    waitFor(
      async () => {
        const entry = (await outbound(inboxId)).data.find((o) => o.id === id);
        return entry && entry.status !== "queued" ? entry : undefined;
      },
      { what: `outbound ${id} settled` },
    );
  const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

  beforeAll(async () => {
    dns = await testDns(system.ports.dns);
    world = await teamWithDomain(api);
    domain = await addDomain("out");
    expect(domain.dkim_record).toMatchObject({ selector: "burnbox", name: `burnbox._domainkey.${domain.domain_name}`, type: "TXT" });
    dns.zones.set(domain.domain_name, { mx: [domain.mx_target], txt: [domain.verification_record], ttl: 60 });
    dns.zones.set(domain.dkim_record!.name, { txt: [domain.dkim_record!.value], ttl: 60 });
    const assignmentId = await assign(await verify(domain));
    a = await createInbox(api, world.owner.token, assignmentId, `a-${tag}`);
    b = await createInbox(api, world.owner.token, assignmentId, `b-${tag}`);
  });
  afterAll(async () => {
    await dns?.close();
  });

  it("when the domain's DKIM record is published, then GET shows it and the verification reports it; the private key is never shown", async () => {
    const shown = await api<Domain>("GET", `${orgPath()}/domains/${domain.id}`, { token: world.owner.token });
    expect(shown.body).toMatchObject({ status: "verified", dkim_verified: true, dkim_record: domain.dkim_record });
    expect(shown.body.dkim_record!.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]{360,}={0,2}$/);
    expect(JSON.stringify(shown.body)).not.toMatch(/PRIVATE|sealed|v1\./);
    const history = await api<{ data: Array<{ dkim_result: boolean | null }> }>(
      "GET",
      `${orgPath()}/domains/${domain.id}/verification-history`,
      {
        token: world.owner.token,
      },
    );
    expect(history.body.data[0]).toMatchObject({ dkim_result: true });
  });

  it("when A sends to B and B replies, then A sees the thread with In-Reply-To and References, each message's DKIM passing", async () => {
    const subject = `Order ${tag}`;
    const sent = await send(a.id, { to: [b.full_address], subject, text: "Has my order shipped?", html: "<p>Has my order shipped?</p>" });
    expect(sent.status).toBe(202);
    expect(sent.body.message_id).toMatch(new RegExp(`^<[^@>]+@${domain.domain_name.replace(/\./g, "\\.")}>$`));
    const inB = await received(b.id, subject);
    expect(inB.authentication?.dkim).toEqual([{ result: "pass", domain: domain.domain_name, selector: "burnbox" }]);
    expect(lower(inB.headers)["message-id"]).toBe(sent.body.message_id);

    const replied = await api<Queued>("POST", `/emails/${inB.id}/reply`, { token: world.owner.token, body: { text: "Yes, yesterday." } });
    expect(replied.status).toBe(202);
    const inA = await received(a.id, `Re: ${subject}`);
    const headers = lower(inA.headers);
    expect(headers["message-id"]).toBe(replied.body.message_id);
    expect(headers["in-reply-to"]).toBe(sent.body.message_id);
    expect(headers["references"]).toBe(sent.body.message_id);
    expect(headers["from"]).toContain(b.full_address);
    expect(headers["to"]).toContain(a.full_address);
    expect(inA.authentication?.dkim).toEqual([{ result: "pass", domain: domain.domain_name, selector: "burnbox" }]);

    // a reply to the reply: its subject is not doubled and References carry the whole chain
    const again = await api<Queued>("POST", `/emails/${inA.id}/reply`, { token: world.owner.token, body: { html: "<p>Thanks!</p>" } });
    expect(again.status).toBe(202);
    const back = lower(
      (
        await waitFor(async () => {
          const list = await api<{ data: Summary[] }>("GET", `/inboxes/${b.id}/emails`, { token: world.owner.token });
          const hit = list.body.data.find((e) => e.subject === `Re: ${subject}`);
          return hit ? (await api<EmailView>("GET", `/emails/${hit.id}`, { token: world.owner.token })).body : null;
        })
      ).headers,
    );
    expect(back["in-reply-to"]).toBe(replied.body.message_id);
    expect(back["references"]).toBe(`${sent.body.message_id} ${replied.body.message_id}`);

    const fromA = await outbound(a.id);
    expect(fromA.data.map((o) => o.kind)).toEqual(["reply", "send"]);
    expect(fromA.data[1]).toMatchObject({ id: sent.body.outbound_id, message_id: sent.body.message_id, to: [b.full_address], subject });
  });

  it("when B releases a received mail to A, then A gets it byte for byte under the Resent-* block, signed; both outbound logs list it newest first", async () => {
    const subject = `Release me ${tag}`;
    const sent = await send(a.id, { to: [b.full_address], subject, text: "keep every byte" });
    expect(sent.status).toBe(202);
    const inB = await received(b.id, subject);
    const original = await rawOf(inB.id);
    const released = await api<Queued>("POST", `/emails/${inB.id}/release`, { token: world.owner.token, body: { to: [a.full_address] } });
    expect(released.status).toBe(202);
    const inA = await waitFor(async () => {
      const list = await api<{ data: Summary[] }>("GET", `/inboxes/${a.id}/emails`, { token: world.owner.token });
      const hits = list.body.data.filter((e) => e.subject === subject);
      return hits.length > 0 ? hits[0] : undefined;
    });
    const got = await rawOf(inA.id);
    // the platform's DKIM-Signature first (folded lines), then the Resent-* block, then the original unchanged
    const text = got.toString("latin1");
    expect(text.startsWith("DKIM-Signature:")).toBe(true);
    const signatureEnd = text.search(/\r\n(?![ \t])/) + 2;
    const rest = got.subarray(signatureEnd);
    const restText = rest.toString("latin1");
    const blockEnd = restText.indexOf("\r\n", restText.indexOf("Resent-Message-ID:")) + 2;
    const block = restText.slice(0, blockEnd);
    const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(block).toMatch(
      new RegExp(
        `^Resent-From: ${escaped(b.full_address)}\r\nResent-To: ${escaped(a.full_address)}\r\nResent-Date: [^\r]+\r\nResent-Message-ID: ${escaped(released.body.message_id)}\r\n$`,
      ),
    );
    expect(rest.subarray(blockEnd).equals(original)).toBe(true);
    const email = await api<EmailView>("GET", `/emails/${inA.id}`, { token: world.owner.token });
    expect(email.body.authentication?.dkim[0]).toEqual({ result: "pass", domain: domain.domain_name, selector: "burnbox" });

    const release = await settled(b.id, released.body.outbound_id);
    expect(release).toMatchObject({
      kind: "release",
      status: "sent",
      attempts: 1,
      to: [a.full_address],
      subject,
      message_id: released.body.message_id,
    });
    expect(release.last_reply).toMatch(/^250/);
    const fromB = await outbound(b.id);
    expect(fromB.data[0]!.id).toBe(released.body.outbound_id);
    const times = fromB.data.map((o) => Date.parse(o.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(fromB.total).toBe(fromB.data.length);
  });

  it("when mail goes out, then each send, reply and release leaves one audit entry naming its outbound id", async () => {
    const fromA = (await outbound(a.id)).data;
    const fromB = (await outbound(b.id)).data;
    const cases = [
      { action: "email.sent", entry: fromA.find((o) => o.kind === "send")!, resource: a.id },
      { action: "email.replied", entry: fromB.find((o) => o.kind === "reply")!, resource: null },
      { action: "email.released", entry: fromB.find((o) => o.kind === "release")!, resource: null },
    ];
    for (const c of cases) {
      const page = await waitFor(
        async () => {
          const res = await api<{ data: AuditEntry[]; total: number }>("GET", `${orgPath()}/audit?action=${c.action}`, {
            token: world.owner.token,
          });
          const hits = res.body.data.filter((e) => e.metadata.outbound_id === c.entry.id);
          return hits.length > 0 ? hits : null;
        },
        { what: `${c.action} in the audit log` },
      );
      expect(page).toHaveLength(1);
      expect(page[0]).toMatchObject({ action: c.action, actor_id: world.owner.userId });
      expect(page[0]!.metadata).toMatchObject({ message_id: c.entry.message_id, to: c.entry.to });
      if (c.resource) expect(page[0]!.resource_id).toBe(c.resource);
    }
  });

  it("when a recipient is neither an inbox of BurnBox nor in the org's allowed list, then 403 names it and nothing is sent", async () => {
    const before = (await outbound(a.id)).total;
    const stranger = `someone@elsewhere-${tag}.e2e.test`;
    const refused = await send(a.id, { to: [b.full_address], cc: [stranger], subject: "no", text: "no" }, world.owner.token, {
      "x-forwarded-for": refusedIp,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: `recipient not allowed: ${stranger}`, code: "forbidden" });
    const reply = await api<Refusal>("POST", `/emails/${(await received(b.id, `Order ${tag}`)).id}/release`, {
      token: world.owner.token,
      body: { to: [stranger] },
      headers: { "x-forwarded-for": refusedIp },
    });
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe(`recipient not allowed: ${stranger}`);
    expect((await outbound(a.id)).total).toBe(before);
    // once the org allows the domain, the same address is taken
    const patched = await api("PATCH", `${orgPath()}/settings`, {
      token: world.owner.token,
      body: { outbound: { allowed_recipients: [`@elsewhere-${tag}.e2e.test`] } },
    });
    expect(patched.status).toBe(200);
    const allowed = await waitFor(async () => {
      const res = await send(a.id, { to: [stranger], subject: "now allowed", text: "x" });
      return res.status === 202 ? res : undefined;
    });
    expect((await outbound(a.id)).data[0]).toMatchObject({ id: allowed.body.outbound_id, to: [stranger], kind: "send" });
  });

  it("when the inbox's domain is not verified any more, then 409 and nothing is queued", async () => {
    const other = await addDomain("lapsed");
    dns.zones.set(other.domain_name, { mx: [other.mx_target], txt: [other.verification_record] });
    const inbox = await createInbox(api, world.owner.token, await assign(await verify(other)), `lapsed-${tag}`);
    dns.zones.delete(other.domain_name);
    expect((await verify(other)).status).not.toBe("verified");
    const refused = await waitFor(async () => {
      const res = await send(inbox.id, { to: [a.full_address], subject: "no", text: "no" }, world.owner.token, {
        "x-forwarded-for": refusedIp,
      });
      return res.status === 409 ? res : undefined;
    });
    expect(refused.body).toMatchObject({ error: "domain is not verified", code: "conflict" });
    expect((await outbound(inbox.id)).total).toBe(0);
  });

  it("when an API key lacks team.emails.send, then send, reply and release are refused; a key with it sends", async () => {
    const keysPath = `${orgPath()}/teams/${world.teamId}/api-keys`;
    const key = async (scopes: string[]) => {
      const res = await api<{ raw_key: string }>("POST", keysPath, {
        token: world.owner.token,
        body: { name: `out-${scopes.length}`, scopes },
      });
      expect(res.status).toBe(201);
      return res.body.raw_key;
    };
    const viewer = await key(["team.inboxes.view", "team.emails.view"]);
    const emailId = (await received(b.id, `Order ${tag}`)).id;
    const headers = { "x-forwarded-for": refusedIp };
    const refusals = [
      await send(a.id, { to: [b.full_address], subject: "no", text: "no" }, viewer, headers),
      await api<Refusal>("POST", `/emails/${emailId}/reply`, { token: viewer, body: { text: "no" }, headers }),
      await api<Refusal>("POST", `/emails/${emailId}/release`, { token: viewer, body: { to: [a.full_address] }, headers }),
    ];
    expect(refusals.map((r) => [r.status, r.body.code])).toEqual([
      [403, "forbidden"],
      [403, "forbidden"],
      [403, "forbidden"],
    ]);
    // the view scope still reads the log
    expect((await api("GET", `/inboxes/${a.id}/outbound`, { token: viewer })).status).toBe(200);
    const sender = await key(["team.emails.send"]);
    expect((await send(a.id, { to: [b.full_address], subject: `By key ${tag}`, text: "x" }, sender)).status).toBe(202);
    await received(b.id, `By key ${tag}`);
  });

  it("when another team's ids or unknown ids are used, then every operation answers the same 404", async () => {
    const outsider = await teamWithDomain(api);
    const emailId = (await received(b.id, `Order ${tag}`)).id;
    const headers = { "x-forwarded-for": refusedIp };
    const calls = (inboxId: string, mailId: string) => [
      api<Refusal>("POST", `/inboxes/${inboxId}/send`, {
        token: outsider.owner.token,
        body: { to: [a.full_address], subject: "x", text: "x" },
        headers,
      }),
      api<Refusal>("POST", `/emails/${mailId}/reply`, { token: outsider.owner.token, body: { text: "x" }, headers }),
      api<Refusal>("POST", `/emails/${mailId}/release`, { token: outsider.owner.token, body: { to: [a.full_address] }, headers }),
      api<Refusal>("GET", `/inboxes/${inboxId}/outbound`, { token: outsider.owner.token, headers }),
    ];
    const foreign = await Promise.all(calls(a.id, emailId));
    const unknown = await Promise.all(calls(randomUUID(), randomUUID()));
    for (const [i, res] of foreign.entries()) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown[i]!.body);
    }
    expect(unknown.map((r) => r.status)).toEqual([404, 404, 404, 404]);
  });

  it("when a team has queued outbound.max_per_hour messages in the hour, then the next is 429 with Retry-After", async () => {
    // a tenant of its own (the limit is per team), on a trusted domain, sending to an address its org allows
    const busy = await teamWithDomain(api);
    const inbox = await createInbox(api, busy.owner.token, busy.assignmentId, `busy-${tag}`);
    const sink = `sink@sink-${tag}.e2e.test`;
    const patched = await api("PATCH", `/orgs/${busy.orgId}/settings`, {
      token: busy.owner.token,
      body: { outbound: { allowed_recipients: [`@sink-${tag}.e2e.test`] } },
    });
    expect(patched.status).toBe(200);
    await waitFor(async () =>
      (await send(inbox.id, { to: [sink], subject: "n0", text: "x" }, busy.owner.token)).status === 202 ? true : undefined,
    );
    for (let i = 1; i < MAX_PER_HOUR; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, MAX_PER_HOUR - i) }, (_, j) =>
          send(inbox.id, { to: [sink], subject: `n${i + j}`, text: "x" }, busy.owner.token),
        ),
      );
      expect(batch.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);
    }
    const refused = await send(inbox.id, { to: [sink], subject: "one too many", text: "x" }, busy.owner.token, {
      "x-forwarded-for": refusedIp,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
    const log = await api<{ total: number }>("GET", `/inboxes/${inbox.id}/outbound`, { token: busy.owner.token });
    expect(log.body.total).toBe(MAX_PER_HOUR);
  });
});
