import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { alias, createHook, deliveryLog, hooksPath, logOf, Receiver, stats, type Hook, type PageOf } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

/**
 * Webhooks as a team sees them, on the shared system (real 5 s retry base, 1 s delivery timeout).
 * Every test has a team and a receiver of its own; the two that wait on real retry delays run
 * concurrently with the rest. The dispatcher restart tests are in restarts.e2e.spec.ts.
 */
describe("webhooks through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  it("when an inbox is created, mail arrives and an inbox's TTL lapses, then each event is delivered, signed, and shows in the log and stats", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["email.received", "inbox.created", "inbox.expired"]);

      const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("wh"));
      const created = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "inbox.created"), {
        what: "inbox.created delivery",
      });
      expect(created.body.data).toMatchObject({
        inbox_id: inbox.id,
        team_id: world.teamId,
        address: inbox.address,
        full_address: inbox.full_address,
      });
      expect(typeof created.body.data.expires_at).toBe("string");

      const subject = `Hook ${randomBytes(4).toString("hex")}`;
      const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hello" });
      expect(sent.data?.code).toBe(250);
      const received = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "email.received"), {
        what: "email.received delivery",
      });
      expect(received.body.data).toMatchObject({
        inbox_id: inbox.id,
        team_id: world.teamId,
        from: "sender@example.org",
        to: inbox.full_address,
        subject,
      });
      expect(typeof received.body.data.email_id).toBe("string");

      const shortLived = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
        token: world.owner.token,
        body: { domain_assignment_id: world.assignmentId, alias: alias("ttl"), ttl: "2s" },
      });
      expect(shortLived.status).toBe(201);
      const expired = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "inbox.expired"), {
        what: "inbox.expired delivery",
        timeoutMs: 20_000,
      });
      expect(expired.body.data).toMatchObject({
        inbox_id: shortLived.body.id,
        team_id: world.teamId,
        full_address: shortLived.body.full_address,
      });
      expect(typeof expired.body.data.expired_at).toBe("string");

      // inbox.created x2, email.received, inbox.expired: four deliveries, each with its own id
      const all = await waitFor(() => (rx.hits.length >= 4 ? rx.deliveries(hook.secret) : null), { what: "four deliveries" });
      expect(new Set(all.map((d) => d.deliveryId)).size).toBe(all.length);

      const log = await logOf(api, world, hook.id, 4);
      expect(log).toMatchObject({ total: 4, page: 1, per_page: 20, total_pages: 1 });
      expect(log.data.every((e) => e.success && e.attempt === 1 && e.response_status === 200 && e.error === null)).toBe(true);
      expect(log.data.every((e) => e.webhook_id === hook.id)).toBe(true);
      const times = log.data.map((e) => Date.parse(e.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first
      expect(log.data[log.data.length - 1]?.event).toBe("inbox.created");
      expect(log.data[0]?.event).toBe("inbox.expired");
      expect(new Set(log.data.map((e) => e.delivery_id))).toEqual(new Set(all.map((d) => d.deliveryId)));

      const paged = await deliveryLog(api, world, hook.id, "?per_page=3&page=2");
      expect(paged).toMatchObject({ total: 4, page: 2, per_page: 3, total_pages: 2 });
      expect(paged.data.map((e) => e.id)).toEqual([log.data[3]?.id]);
      for (const bad of ["?per_page=0", "?per_page=101", "?page=0"]) {
        expect((await api("GET", `${hooksPath(world)}/${hook.id}/deliveries${bad}`, { token: world.owner.token })).status).toBe(400);
        expect((await api("GET", `${hooksPath(world)}${bad}`, { token: world.owner.token })).status).toBe(400);
      }

      const s = await stats(api, world, hook.id);
      expect(s).toMatchObject({ total_deliveries: 4, success_count: 4, failure_count: 0, success_rate: 100 });
      expect(s.last_delivery_at).toBe(log.data[0]?.created_at);
      const avg = Math.round(log.data.reduce((sum, e) => sum + e.response_time_ms, 0) / log.data.length);
      expect(s.avg_response_time_ms).toBe(avg);
    } finally {
      await rx.close();
    }
  });

  // waits out the real retry delays (5 s, then 25 s): runs alongside the rest of the file
  it.concurrent(
    "when the receiver never answers within the timeout, then failure_count rises by one and the next event is still sent",
    async () => {
      const world = await teamWithDomain(api);
      const rx = await Receiver.start();
      try {
        rx.answer = () => "hang";
        const hook = await createHook(api, world, rx.url, ["inbox.created"]);
        await createInbox(api, world.owner.token, world.assignmentId, alias("slow"));

        const failed = await waitFor(
          async () => {
            const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
            const h = list.body.data.find((x) => x.id === hook.id);
            return h && h.failure_count === 1 ? h : null;
          },
          { what: "failure_count 1", timeoutMs: 60_000, intervalMs: 500 },
        );
        expect(failed.active).toBe(true);
        expect(rx.hits).toHaveLength(3);
        expect(new Set(rx.deliveries(hook.secret).map((d) => d.deliveryId)).size).toBe(1);
        const log = await logOf(api, world, hook.id, 3);
        expect(log.data.map((e) => [e.attempt, e.success, e.response_status])).toEqual([
          [3, false, null],
          [2, false, null],
          [1, false, null],
        ]);
        expect(log.data.every((e) => /timed out/.test(e.error ?? "") && e.response_time_ms >= 900)).toBe(true);

        rx.answer = () => 200;
        const next = await createInbox(api, world.owner.token, world.assignmentId, alias("after"));
        const delivered = await waitFor(
          () => rx.deliveries(hook.secret).find((d) => d.event === "inbox.created" && d.body.data.inbox_id === next.id),
          { what: "the next event's delivery" },
        );
        expect(delivered.deliveryId).not.toBe(rx.deliveries(hook.secret)[0]?.deliveryId);

        await logOf(api, world, hook.id, 4);
        const s = await stats(api, world, hook.id);
        expect(s).toMatchObject({ total_deliveries: 4, success_count: 1, failure_count: 3, success_rate: 25 });
        expect(s.avg_response_time_ms).toBeGreaterThanOrEqual(700); // three ~1 s timeouts and one quick 200
        const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
        expect(list.body.data.find((x) => x.id === hook.id)?.failure_count).toBe(1);
      } finally {
        await rx.close();
      }
    },
    90_000,
  );

  it("when a webhook is created, then no row of the dispatcher's database holds its secret (as a pg_dump would show them), and its deliveries are signed with it", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
      await createInbox(api, world.owner.token, world.assignmentId, alias("sealed"));
      const [delivered] = await waitFor(() => (rx.hits.length > 0 ? rx.deliveries(hook.secret) : null), {
        what: "the inbox.created delivery",
      });
      expect(delivered?.event).toBe("inbox.created");

      const db = new Client({ connectionString: testDatabaseUrl(`${system.namespace}_webhook_dispatcher`) });
      await db.connect();
      try {
        // every column of every row of every table, as text
        const tables = await db.query<{ name: string }>(
          "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        );
        expect(tables.rows.map((t) => t.name)).toContain("webhooks");
        let rowsRead = 0;
        for (const { name } of tables.rows) {
          const { rows } = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
          rowsRead += rows.length;
          for (const { row } of rows) expect(row).not.toContain(hook.secret);
        }
        const own = await db.query<{ row: string }>("SELECT row_to_json(w)::text AS row FROM webhooks w WHERE id = $1", [hook.id]);
        expect(own.rows).toHaveLength(1);
        expect(rowsRead).toBeGreaterThan(1);
      } finally {
        await db.end();
      }
    } finally {
      await rx.close();
    }
  });

  it("when webhooks are listed, patched and deleted, then the URL rules apply again and another team's webhook is not found", async () => {
    const world = await teamWithDomain(api);
    const other = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      const path = `${hooksPath(world)}/${hook.id}`;

      const list = await api<PageOf<Hook & { url: string }>>("GET", hooksPath(world), { token: world.owner.token });
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, per_page: 20, total_pages: 1 });
      expect(list.body.data[0]).toMatchObject({ id: hook.id, url: rx.url, active: true, failure_count: 0 });
      expect(list.body.data[0]).not.toHaveProperty("secret");

      const refused = await api<{ code: string }>("PATCH", path, { token: world.owner.token, body: { url: "http://metadata.internal/x" } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("validation_error");
      expect((await api("PATCH", path, { token: world.owner.token, body: {} })).status).toBe(400);

      const patched = await api<{ events: string[]; active: boolean }>("PATCH", path, {
        token: world.owner.token,
        body: { events: ["inbox.created", "inbox.expired"], active: false },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ events: ["inbox.created", "inbox.expired"], active: false });

      // an inactive webhook is not sent to. Sentinels instead of a pause: an active webhook of the same
      // team shows the event was dispatched; then, re-activated, this one's first delivery is the next event's
      const witness = await Receiver.start();
      const witnessHook = await createHook(api, world, witness.url, ["inbox.created"]);
      try {
        const quiet = await createInbox(api, world.owner.token, world.assignmentId, alias("quiet"));
        await waitFor(() => witness.hits.length > 0, { what: "the quiet inbox's event at the other webhook" });
        expect((await api("PATCH", path, { token: world.owner.token, body: { active: true } })).status).toBe(200);
        const loud = await createInbox(api, world.owner.token, world.assignmentId, alias("loud"));
        await waitFor(() => rx.hits.length > 0, { what: "the first delivery after re-activation" });
        expect(rx.deliveries(hook.secret).map((d) => d.body.data.inbox_id)).toEqual([loud.id]);
        expect(quiet.id).not.toBe(loud.id);
      } finally {
        await api("DELETE", `${hooksPath(world)}/${witnessHook.id}`, { token: world.owner.token });
        await witness.close();
      }

      // the other team's owner: not found on every route, even with the right ids
      for (const [method, suffix, body] of [
        ["PATCH", "", { active: true }],
        ["DELETE", "", undefined],
        ["GET", "/deliveries", undefined],
        ["GET", "/stats", undefined],
      ] as const) {
        const res = await api<{ code: string }>(method, `${path}${suffix}`, { token: other.owner.token, ...(body ? { body } : {}) });
        expect([method, suffix, res.status, res.body.code]).toEqual([method, suffix, 404, "not_found"]);
      }
      // the right team's path with a webhook id of another team: 404 too
      const theirs = await createHook(api, other, rx.url, ["inbox.created"]);
      const cross = await api("GET", `${hooksPath(world)}/${theirs.id}/stats`, { token: world.owner.token });
      expect(cross.status).toBe(404);

      const del = await api<{ message: string }>("DELETE", path, { token: world.owner.token });
      expect(del.status).toBe(200);
      expect(typeof del.body.message).toBe("string");
      expect((await api("DELETE", path, { token: world.owner.token })).status).toBe(404);
      const after = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
      expect(after.body).toMatchObject({ total: 0, data: [] });
    } finally {
      await rx.close();
    }
  });

  // the one test of the real retry schedule; runs alongside the rest of the file
  it.concurrent(
    "when the receiver answers 500 twice then 200, then three attempts of one delivery arrive at about 0, 5 and 30 s",
    async () => {
      const world = await teamWithDomain(api);
      const rx = await Receiver.start();
      try {
        rx.answer = (n) => (n <= 2 ? 500 : 200);
        const hook = await createHook(api, world, rx.url, ["inbox.created"]);
        await createInbox(api, world.owner.token, world.assignmentId, alias("retry"));
        const createdAt = Date.now();
        await waitFor(() => rx.hits.length >= 3, { what: "three attempts", timeoutMs: 45_000, intervalMs: 100 });
        const [a, b, c] = rx.hits.map((h) => h.at) as [number, number, number];
        expect(a - createdAt).toBeLessThan(1500);
        expect(Math.abs(b - a - 5_000)).toBeLessThanOrEqual(1500);
        expect(Math.abs(c - a - 30_000)).toBeLessThanOrEqual(1500);
        expect(new Set(rx.deliveries(hook.secret).map((d) => d.deliveryId)).size).toBe(1);

        const log = await logOf(api, world, hook.id, 3);
        expect(log.data.map((e) => [e.attempt, e.success, e.response_status])).toEqual([
          [3, true, 200],
          [2, false, 500],
          [1, false, 500],
        ]);
        expect(new Set(log.data.map((e) => e.delivery_id))).toEqual(new Set([rx.hits[0]?.headers["x-service-delivery-id"]]));
        expect(await stats(api, world, hook.id)).toMatchObject({
          total_deliveries: 3,
          success_count: 1,
          failure_count: 2,
          success_rate: 33.33,
          last_delivery_at: log.data[0]?.created_at,
        });
        const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
        expect(list.body.data[0]?.failure_count).toBe(0);
      } finally {
        await rx.close();
      }
    },
    90_000,
  );

  it("when a URL is site-local (fec0::/10), SRv6 (5f00::/16) or holds a control character, then create and update refuse it, and a name resolving there is refused at dispatch", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    const dns = await testDns(system.ports.dns);
    try {
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      const path = `${hooksPath(world)}/${hook.id}`;
      for (const url of [
        "http://[fec0::1]/hook",
        "https://[feff::abcd]/hook",
        "http://[5f00::1]/hook",
        "https://hooks.example.com/a\nb",
        "https://hooks.exa\nmple.com/hook",
        "https://hooks.example.com/\u0000x",
        "https://hooks.example.com/\u007fx",
      ]) {
        const created = await api<{ code: string }>("POST", hooksPath(world), {
          token: world.owner.token,
          body: { url, events: ["inbox.created"] },
        });
        expect([url, "create", created.status, created.body.code]).toEqual([url, "create", 400, "validation_error"]);
        const patched = await api<{ code: string }>("PATCH", path, { token: world.owner.token, body: { url } });
        expect([url, "update", patched.status, patched.body.code]).toEqual([url, "update", 400, "validation_error"]);
      }
      const list = await api<PageOf<Hook & { url: string }>>("GET", hooksPath(world), { token: world.owner.token });
      expect(list.body.data.map((h) => h.url)).toEqual([rx.url]);

      // dispatch: a public-looking name whose only addresses are site-local and SRv6 (the system's dns.servers)
      const name = `${alias("hooks")}.webhooks-e2e.example`;
      dns.zones.set(name, { aaaa: ["fec0::1", "5f00::1"] });
      expect((await api("PATCH", path, { token: world.owner.token, body: { url: `http://${name}/hook` } })).status).toBe(200);
      await createInbox(api, world.owner.token, world.assignmentId, alias("refused"));
      const log = await logOf(api, world, hook.id, 1);
      expect(log.data[0]).toMatchObject({ success: false, response_status: null });
      expect(log.data[0]?.error).toMatch(/^refused: .*not publicly routable/);
    } finally {
      await dns.close();
      await rx.close();
    }
  });
});
