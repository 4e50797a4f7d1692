import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

interface Summary {
  id: string;
  subject: string;
  received_at: string;
}
interface WaitAnswer {
  data: Summary[];
  matched: number;
  timed_out: boolean;
}

/** GET /inboxes/:id/emails/wait (extensions section 1) through the public ports: HTTP and SMTP. */
describe("waiting for mail", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const tag = () => randomBytes(4).toString("hex");

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  const newInbox = (label: string) => createInbox(api, world.owner.token, world.assignmentId, `${label}-${tag()}`);

  /** One message as written (headers, then the body); resolves when the intake answered 250, with that moment. */
  async function deliver(to: string, headers: string[], body: string, contentType = "text/plain; charset=utf-8"): Promise<number> {
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<sender@acme.example>")).code).toBe(250);
      expect((await s.command(`RCPT TO:<${to}>`)).code).toBe(250);
      const message = [
        `To: ${to}`,
        `Message-ID: <${tag()}@e2e.test>`,
        `Date: ${new Date().toUTCString()}`,
        "MIME-Version: 1.0",
        `Content-Type: ${contentType}`,
        ...headers,
        "",
        body,
      ].join("\r\n");
      const done = await s.data(message);
      const at = Date.now();
      expect(done.code).toBe(250);
      return at;
    } finally {
      await s.quit();
    }
  }

  const wait = (inboxId: string, query: string, token = world.owner.token) =>
    api<WaitAnswer>("GET", `/inboxes/${inboxId}/emails/wait${query ? `?${query}` : ""}`, { token });

  it("when a wait is started before the mail, then it answers within 1 s of the SMTP 250 with that mail", async () => {
    const inbox = await newInbox("wake");
    const run = tag();
    const waiting = wait(inbox.id, `subject=${run}&timeout=20s`).then((r) => ({ r, at: Date.now() }));
    const accepted = await deliver(inbox.full_address, ["From: Shop <shop@acme.example>", `Subject: Your code ${run}`], "Code: 482913");
    const { r, at } = await waiting;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ matched: 1, timed_out: false, data: [{ subject: `Your code ${run}` }] });
    expect(at - accepted).toBeLessThan(1000);
  });

  it("when the mail arrived before the call, then the wait finds it at once; timeout=0 answers at once either way", async () => {
    const inbox = await newInbox("before");
    await deliver(inbox.full_address, ["From: a@acme.example", "Subject: already here"], "hi");
    const started = Date.now();
    const found = await wait(inbox.id, "subject=already&timeout=30s");
    expect(found.body).toMatchObject({ matched: 1, timed_out: false, data: [{ subject: "already here" }] });
    expect(Date.now() - started).toBeLessThan(1000);
    const none = await wait(inbox.id, "subject=nothing&timeout=0");
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [], matched: 0, timed_out: true });
  });

  describe("matchers", () => {
    let inbox: { id: string; full_address: string };
    let first: Summary;
    let second: Summary;
    let between: string;
    const match = async (query: string) => {
      const r = await wait(inbox.id, `${query}&timeout=0`);
      expect(r.status).toBe(200);
      return r.body.data.map((e) => e.subject);
    };

    beforeAll(async () => {
      inbox = await newInbox("match");
      await deliver(
        inbox.full_address,
        [
          "From: Alice Sender <alice@acme.example>",
          "Cc: Carol Copy <carol@cc.example>",
          "Subject: Order 1234 shipped",
          "X-Test-Run: run-a",
          "X-Tenant: t1",
        ],
        "Your parcel is on its way",
      );
      const one = await wait(inbox.id, "timeout=5s");
      first = one.body.data[0]!;
      between = new Date(new Date(first.received_at).getTime() + 1).toISOString();
      await deliver(
        inbox.full_address,
        ["From: bob@other.example", "Subject: Confirm your account", "X-Test-Run: run-b", "X-Tenant: t1"],
        '<html><body><p>Click <a href="https://tracker.example/secret-path" title="hidden-title">here</a> to confirm</p></body></html>',
        "text/html; charset=utf-8",
      );
      const two = await wait(inbox.id, "count=2&timeout=5s");
      second = two.body.data[1]!;
    });

    it("from, to (with Cc) and subject are case-insensitive substrings", async () => {
      expect(await match("from=ALICE SENDER")).toEqual(["Order 1234 shipped"]);
      expect(await match("from=other.example")).toEqual(["Confirm your account"]);
      expect(await match("to=carol copy")).toEqual(["Order 1234 shipped"]);
      expect(await match(`to=${encodeURIComponent(inbox.full_address.toUpperCase())}&count=2`)).toEqual([
        "Order 1234 shipped",
        "Confirm your account",
      ]);
      expect(await match("subject=confirm YOUR")).toEqual(["Confirm your account"]);
    });

    it("body reads the text part, else the HTML's visible text: link URLs and attribute values are not text", async () => {
      expect(await match("body=parcel")).toEqual(["Order 1234 shipped"]);
      expect(await match("body=click here to confirm")).toEqual(["Confirm your account"]);
      expect(await match("body=secret-path")).toEqual([]);
      expect(await match("body=hidden-title")).toEqual([]);
    });

    it("subject_re and body_re are RE2 expressions", async () => {
      expect(await match(`subject_re=${encodeURIComponent("^Order \\d+ shipped$")}`)).toEqual(["Order 1234 shipped"]);
      expect(await match(`body_re=${encodeURIComponent("on its w(a|e)y")}`)).toEqual(["Order 1234 shipped"]);
      expect(await match(`body_re=${encodeURIComponent("(?i)CLICK\\s+here")}`)).toEqual(["Confirm your account"]);
    });

    it("header may repeat and every one must hold (X-Test-Run tags a run's mail)", async () => {
      const h = (v: string) => `header=${encodeURIComponent(v)}`;
      expect(await match(h("x-test-run: run-b"))).toEqual(["Confirm your account"]);
      expect(await match(`${h("X-Test-Run: run-a")}&${h("X-Tenant: t1")}`)).toEqual(["Order 1234 shipped"]);
      expect(await match(`${h("X-Test-Run: run-a")}&${h("X-Tenant: t2")}`)).toEqual([]);
    });

    it("since as a time or as an email id counts only later mail; count=2 gives both oldest first", async () => {
      expect(await match(`since=${encodeURIComponent(between)}`)).toEqual(["Confirm your account"]);
      expect(await match(`since=${first.id}`)).toEqual(["Confirm your account"]);
      expect(await match(`since=${second.id}`)).toEqual([]);
      const both = await wait(inbox.id, "count=2&timeout=0");
      expect(both.body).toMatchObject({ matched: 2, timed_out: false });
      expect(both.body.data.map((e) => e.id)).toEqual([first.id, second.id]);
      const three = await wait(inbox.id, "count=3&timeout=0");
      expect(three.body).toMatchObject({ matched: 2, timed_out: true });
    });

    it("unread=true leaves out the emails marked read", async () => {
      const marked = await api("PATCH", `/emails/${first.id}`, { token: world.owner.token, body: { is_read: true } });
      expect(marked.status).toBe(200);
      expect(await match("unread=true&count=2")).toEqual(["Confirm your account"]);
      expect(await match("count=2")).toEqual(["Order 1234 shipped", "Confirm your account"]);
    });
  });

  it("when nothing matches, then the wait answers 200 timed_out after about its timeout", async () => {
    const inbox = await newInbox("timeout");
    const started = Date.now();
    const r = await wait(inbox.id, "subject=never&timeout=700ms");
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], matched: 0, timed_out: true });
    expect(took).toBeGreaterThanOrEqual(650);
    expect(took).toBeLessThan(3000);
  });

  it("when the inbox is deleted during a wait, then the wait ends with 404 within 1 s", async () => {
    const inbox = await newInbox("deleted");
    const waiting = wait(inbox.id, "timeout=20s").then((r) => ({ r, at: Date.now() }));
    // the wait is held once a second one on the same inbox answered (both read the inbox first)
    await wait(inbox.id, "timeout=0");
    const del = await api("DELETE", `/inboxes/${inbox.id}`, { token: world.owner.token });
    const deletedAt = Date.now();
    expect(del.status).toBe(204);
    const { r, at } = await waiting;
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: "not_found" });
    expect(at - deletedAt).toBeLessThan(1000);
  });

  it("when a catastrophic-backtracking pattern meets a long body, then the wait answers at once", async () => {
    const inbox = await newInbox("redos");
    await deliver(inbox.full_address, ["From: a@acme.example", "Subject: long"], `${"a".repeat(20_000)}!`);
    await wait(inbox.id, "subject=long&timeout=5s");
    const started = Date.now();
    const r = await wait(inbox.id, `body_re=${encodeURIComponent("(a+)+$")}&subject_re=${encodeURIComponent("(x+x+)+y")}&timeout=0`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ matched: 0, timed_out: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("when the query is bad, then 400 in the envelope, and nothing is held", async () => {
    const inbox = await newInbox("bad");
    for (const q of [
      "color=red",
      "count=0",
      "count=101",
      "timeout=121s",
      "subject_re=(unclosed",
      "since=yesterday",
      `since=${"0".repeat(8)}`,
    ]) {
      const r = await wait(inbox.id, q);
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
      expect(r.body).toMatchObject({ code: "validation_error" });
    }
    // an id that is not an email of this inbox
    const r = await wait(inbox.id, "since=0193a0c4-0000-7000-8000-000000000000");
    expect(r.status).toBe(400);
  });

  it("when the inbox is another team's or unknown, then 404 alike, with a JWT and with an API key", async () => {
    const other = await teamWithDomain(api);
    const theirs = await createInbox(api, other.owner.token, other.assignmentId, `theirs-${tag()}`);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: `wait-${tag()}`, scopes: ["team.emails.view"] },
    });
    expect(key.status).toBe(201);
    const unknown = "0193a0c4-0000-7000-8000-000000000000";
    for (const token of [world.owner.token, key.body.raw_key]) {
      const foreign = await wait(theirs.id, "timeout=5s", token);
      const absent = await wait(unknown, "timeout=5s", token);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(absent.body);
    }
    // and the key reads its own team's inbox
    const mine = await newInbox("key");
    expect((await wait(mine.id, "timeout=0", key.body.raw_key)).status).toBe(200);
  });

  it("when one user holds 100 waits, then the 101st is 429 in the 7.2 shape", async () => {
    const user = await teamWithDomain(api);
    const inbox = await createInbox(api, user.owner.token, user.assignmentId, `cap-${tag()}`);
    // 101 at once on an empty inbox; they last until the inbox is deleted (however slowly a loaded machine takes them in)
    const answered: Array<Awaited<ReturnType<typeof wait>>> = [];
    const all = Array.from({ length: 101 }, () => wait(inbox.id, "timeout=60s", user.owner.token).then((r) => answered.push(r)));
    const refused = await waitFor(() => answered.find((r) => r.status === 429), { what: "the 101st refused", timeoutMs: 30_000 });
    expect(refused.body).toEqual({ error: expect.any(String), retry_after: expect.any(Number) });
    expect(Number(refused.headers.get("retry-after"))).toBe((refused.body as unknown as { retry_after: number }).retry_after);
    expect(answered).toHaveLength(1);
    // the 100 held end with the inbox
    expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: user.owner.token })).status).toBe(204);
    await Promise.all(all);
    expect(answered.filter((r) => r.status === 404)).toHaveLength(100);
    // and their slots are free again
    const next = await createInbox(api, user.owner.token, user.assignmentId, `cap-${tag()}`);
    const again = await Promise.all(Array.from({ length: 3 }, () => wait(next.id, "timeout=300ms", user.owner.token)));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
