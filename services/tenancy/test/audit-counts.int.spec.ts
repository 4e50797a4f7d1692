import { RpcName, type AuditEntry, type Page } from "@burnbox/contracts";
import { newEvent, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { AUDIT_CONSUMER } from "../src/messaging/audit.consumer";
import { deliver, handledThrough, startTenancy, type Tenancy } from "./support";

type AuditPage = Page<AuditEntry>;

/**
 * The audit totals kept per org and for the platform (migration 0010's triggers): what an
 * unfiltered `GET /orgs/:id/audit` and `GET /admin/audit` answer as `total`, always equal to
 * counting the entries, through inserts from several connections at once, retention's batch
 * deletes, an org's removal and a TRUNCATE.
 */
describe("kept audit totals on real Postgres", () => {
  let t: Tenancy;
  const owner = makeActor();
  const admin = makeActor({ is_system_admin: true });
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    t = await startTenancy({ audit: { retention: "30d", retention_interval: "1h" } });
    const make = (name: string) => t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name } });
    orgA = (await make("Counted A")).body.id;
    orgB = (await make("Counted B")).body.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** `n` entries `daysAgo` days old, spread over the orgs given (null: an entry with no org), in one statement. */
  const insert = (orgs: Array<string | null>, n: number, daysAgo = 0) =>
    t.infra.pool!.query(
      `INSERT INTO audit_entries (id, org_id, actor_type, action, category, severity, resource_type, created_at)
       SELECT gen_random_uuid(), ($1::uuid[])[1 + g % cardinality($1::uuid[])], 'system', 'inbox.expired', 'inbox', 'info', 'inbox',
              now() - make_interval(days => $3) - make_interval(secs => g)
       FROM generate_series(1, $2::int) g`,
      [orgs, n, daysAgo],
    );

  /** The kept totals beside the entries counted, read in one statement (one snapshot). */
  const totals = async () => {
    const { rows } = await t.infra.pool!.query<Record<string, number>>(
      `SELECT (SELECT coalesce(sum(entries), 0) FROM audit_org_entry_counts WHERE org_id = $1)::int AS "keptA",
              (SELECT count(*) FROM audit_entries WHERE org_id = $1)::int AS "countedA",
              (SELECT coalesce(sum(entries), 0) FROM audit_org_entry_counts WHERE org_id = $2)::int AS "keptB",
              (SELECT count(*) FROM audit_entries WHERE org_id = $2)::int AS "countedB",
              (SELECT coalesce(sum(entries), 0) FROM audit_entry_totals)::int AS "keptAll",
              (SELECT count(*) FROM audit_entries)::int AS "countedAll"`,
      [orgA, orgB],
    );
    const r = rows[0]!;
    return { a: [r.keptA, r.countedA], b: [r.keptB, r.countedB], all: [r.keptAll, r.countedAll] };
  };
  const expectExact = async () => {
    const now = await totals();
    expect(now).toEqual({ a: [now.a[1], now.a[1]], b: [now.b[1], now.b[1]], all: [now.all[1], now.all[1]] });
    return now;
  };

  /** A list's answer unfiltered (kept total) and with a filter every entry matches (counted): the same bytes. */
  const sameAnswers = async (path: string, actor = owner) => {
    const kept = await t.call<AuditPage>("GET", `${path}?per_page=1`, { actor });
    const counted = await t.call<AuditPage>("GET", `${path}?per_page=1&date_from=2000-01-01T00:00:00Z`, { actor });
    return kept.status === 200 && JSON.stringify(kept.body) === JSON.stringify(counted.body) ? kept.body : null;
  };

  it("when entries are recorded through several connections at once, then the kept totals equal the entries counted", async () => {
    // 12 statements at once (the pool spreads them over its connections, so over slots), with the consumer recording too
    const events = Array.from({ length: 6 }, (_, i) =>
      newEvent("audit.recorded", {
        org_id: i % 2 === 0 ? orgA : null,
        team_id: null,
        data: {
          action: "user.login",
          actor_user_id: owner.user_id,
          actor_api_key_id: null,
          target_type: "user",
          target_id: owner.user_id,
          ip_address: null,
          metadata: {},
        },
      }),
    );
    const [seqs] = await Promise.all([
      Promise.all(events.map((e) => deliver(t, e))),
      ...Array.from({ length: 12 }, (_, k) => insert(k % 3 === 0 ? [orgA] : [orgA, orgB, null], 20 + k)),
    ]);
    await handledThrough(t, AUDIT_CONSUMER, Math.max(...seqs));

    const now = await expectExact();
    expect(now.a[0]).toBeGreaterThan(100);
    expect(now.all[0]).toBeGreaterThan(now.a[0]! + now.b[0]!); // entries with no org count in the platform total only

    // through the API: the kept total answers exactly what counting does (the consumer may still be recording org.created)
    const page = await waitFor(() => sameAnswers(`/orgs/${orgA}/audit`), { what: "the org list's kept total" });
    expect(page.total).toBe((await totals()).a[1]);
    await waitFor(() => sameAnswers("/admin/audit", admin), { what: "the admin list's kept total" });
  });

  it("when retention deletes in batches from several connections while entries arrive, then the kept totals follow", async () => {
    await Promise.all([insert([orgA, orgB, null], 300, 31), insert([orgB], 40, 45)]);
    const expired = async () =>
      (
        await t.infra.pool!.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM audit_entries WHERE created_at < now() - interval '30 days'",
        )
      ).rows[0]!.n;
    expect(await expired()).toBe(340);
    await expectExact();

    // the worker, plus three "replicas" deleting small batches (SKIP LOCKED), plus new entries at once
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    const replica = async () => {
      while ((await t.service.deps.data.repos.audit.deleteOlderThan(cutoff, 17)) > 0);
    };
    await Promise.all([
      t.service.workers.auditRetention.runNow(),
      replica(),
      replica(),
      replica(),
      ...Array.from({ length: 6 }, (_, k) => insert([orgA, orgB, null], 10 + k)),
    ]);
    expect(await expired()).toBe(0);
    await expectExact();
    await waitFor(() => sameAnswers(`/orgs/${orgB}/audit`), { what: "the org list's kept total" });
  });

  it("when an org is deleted, then its entries stay for administrators and every kept total stays exact", async () => {
    // identity's side of the deletion: the password check and the key removal
    const identity = [
      serveRpc(t.infra.nc, t.ns, RpcName.verifyPassword, () => Promise.resolve({ valid: true, has_password: true }), t.infra.logger),
      serveRpc(t.infra.nc, t.ns, RpcName.removeTenantKeys, () => Promise.resolve({ removed: 0 }), t.infra.logger),
    ];
    const before = await expectExact();
    try {
      const res = await t.call("DELETE", `/orgs/${orgB}`, { actor: owner, body: { password: "correct horse" } });
      expect(res.status).toBe(200);
    } finally {
      await Promise.all(identity.map((s) => s.stop()));
    }
    // the deletion's own entry (org.deleted) is recorded under the org like any other
    await waitFor(async () => ((await totals()).b[1]! > before.b[1]! ? true : null), { what: "the org.deleted entry" });
    const after = await expectExact();
    expect(after.b[0]).toBe(before.b[0]! + 1);
    expect((await t.call("GET", `/orgs/${orgB}/audit`, { actor: owner })).status).toBe(404);
    await waitFor(() => sameAnswers("/admin/audit", admin), { what: "the admin list's kept total" });
  });

  it("when the log is truncated, then the kept totals are emptied with it and count again from zero", async () => {
    await t.infra.pool!.query("TRUNCATE audit_entries");
    expect(await expectExact()).toEqual({ a: [0, 0], b: [0, 0], all: [0, 0] });
    await Promise.all([insert([orgA, null], 5), insert([orgA], 3)]); // orgA: 2 + 3
    expect(await expectExact()).toEqual({ a: [5, 5], b: [0, 0], all: [8, 8] });
  });
});
