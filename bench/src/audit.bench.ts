/**
 * The audit log at a million entries: p50/p99 of a filtered page through the gateway, the plan
 * Postgres picks for it (EXPLAIN ANALYZE), and a 10,000-row export. The measured org holds half of
 * the entries (the worst case for its filters); 199 other orgs share the rest, spread over a year.
 * Run: pnpm --filter @burnbox/bench audit   (Postgres, Redis and NATS must be up)
 */
import path from "node:path";
import { prepareDatabase } from "@burnbox/service-kit/data";
import { testDatabaseUrl } from "@burnbox/test-kit";
import { apiClient, STRONG_PASSWORD, System, teamWithDomain } from "@burnbox/tests-e2e";
import type { Pool } from "pg";
import { cpuMs, machine, percentile, summary } from "./stats";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const READS = Number(process.env.BENCH_READS ?? 200);
const ADMIN_EMAIL = "audit-bench-admin@bench.test";
const ACTIONS = [
  ["inbox.created", "inbox", "inbox"],
  ["inbox.deleted", "inbox", "inbox"],
  ["email.deleted", "email", "email"],
  ["email.updated", "email", "email"],
  ["inbox.emails_marked_read", "inbox", "inbox"],
  ["apikey.created", "apikey", "api_key"],
  ["apikey.revoked", "apikey", "api_key"],
  ["member.role_changed", "member", "member"],
  ["team.created", "team", "team"],
  ["webhook.updated", "webhook", "webhook"],
  ["domain.verification_checked", "domain", "domain"],
  ["user.login", "auth", "user"],
] as const;

async function main(): Promise<void> {
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    identity: { BB_ADMIN_EMAILS: ADMIN_EMAIL },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
  });
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const pool = await prepareDatabase(
      testDatabaseUrl(system.databaseName("tenancy")),
      path.join(__dirname, "..", "..", "services", "tenancy", "prisma", "migrations"),
    );
    const seeded = Date.now();
    // entry n: half in the measured org, the rest over 199 others; 50 actors per org; one action in 12; a year of timestamps
    await pool.query(
      `WITH a(i, action, category, resource_type) AS (SELECT * FROM unnest($3::int[], $4::text[], $5::text[], $6::text[]))
       INSERT INTO audit_entries (id, org_id, actor_id, actor_email, actor_type, action, category, severity, resource_type,
                                  resource_id, resource_name, metadata, ip_address, user_agent, created_at)
       SELECT gen_random_uuid(),
              CASE WHEN n % 2 = 0 THEN $1::uuid ELSE ('00000000-0000-4000-8000-' || lpad((n % 199)::text, 12, '0'))::uuid END,
              ('00000000-0000-4000-9000-' || lpad((n % 50)::text, 12, '0'))::uuid,
              'actor' || (n % 50) || '@bench.test', 'user', a.action, a.category,
              CASE WHEN n % 97 = 0 THEN 'warning' ELSE 'info' END, a.resource_type,
              md5(n::text), 'resource ' || n, '{"bench": true}'::jsonb, '10.0.0.1', 'bench',
              now() - make_interval(secs => (n::double precision / $2) * 365 * 86400)
       FROM generate_series(1, $2::int) n JOIN a ON a.i = n % 12`,
      [world.orgId, ENTRIES, ACTIONS.map((_, i) => i), ACTIONS.map((a) => a[0]), ACTIONS.map((a) => a[1]), ACTIONS.map((a) => a[2])],
    );
    await pool.query("VACUUM ANALYZE audit_entries");
    const seedMs = Date.now() - seeded;
    const { rows: counted } = await pool.query<{ n: number; org: number }>(
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE org_id = $1)::int AS org FROM audit_entries",
      [world.orgId],
    );
    const actorId = "00000000-0000-4000-9000-000000000008";
    const { rows: someResource } = await pool.query<{ resource_id: string }>(
      "SELECT resource_id FROM audit_entries WHERE org_id = $1 AND resource_id IS NOT NULL LIMIT 1 OFFSET 1000",
      [world.orgId],
    );
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();

    const org = `/orgs/${world.orgId}/audit`;
    const pages: Record<string, string> = {
      "no filter": `${org}`,
      "category=email": `${org}?category=email`,
      "action=apikey.revoked": `${org}?action=apikey.revoked`,
      actor_id: `${org}?actor_id=${actorId}`,
      resource_id: `${org}?resource_id=${someResource[0]?.resource_id ?? ""}`,
      "severity=warning": `${org}?severity=warning`,
      "date_from=7 days ago": `${org}?date_from=${encodeURIComponent(weekAgo)}`,
      "category=inbox&actor_id&date_from": `${org}?category=inbox&actor_id=${actorId}&date_from=${encodeURIComponent(weekAgo)}`,
      "page=50 (per_page 100)": `${org}?page=50&per_page=100`,
      "admin: no filter": `/admin/audit`,
    };
    const admin = await api<{ tokens: { access_token: string } }>("POST", "/auth/register", {
      body: { email: ADMIN_EMAIL, password: STRONG_PASSWORD, display_name: "Bench admin" },
    });
    if (admin.status !== 201) throw new Error(`admin: ${admin.status}`);
    const lines: string[] = [];
    for (const [label, p] of Object.entries(pages)) {
      const token = label.startsWith("admin") ? admin.body.tokens.access_token : world.owner.token;
      for (let i = 0; i < 10; i++) await api("GET", p, { token }); // warm-up
      const samples: number[] = [];
      let total = 0;
      for (let i = 0; i < READS; i++) {
        const start = performance.now();
        const res = await api<{ total: number }>("GET", p, { token });
        samples.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        total = res.body.total;
      }
      lines.push(`${summary(`GET page, ${label}`, samples)} (total ${total})`);
    }

    const plans: string[] = [];
    for (const [label, where, params] of [
      ["category=email", "org_id = $1 AND category = 'email'", [world.orgId]],
      [
        "actor_id, category=inbox, date_from",
        "org_id = $1 AND category = 'inbox' AND actor_id = $2 AND created_at >= $3",
        [world.orgId, actorId, weekAgo],
      ],
    ] as const) {
      const page = await pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM audit_entries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0`,
        [...params],
      );
      const count = await pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM audit_entries WHERE ${where}`,
        [...params],
      );
      plans.push(
        `-- page, ${label}`,
        ...page.rows.map((r) => r["QUERY PLAN"]),
        `-- count, ${label}`,
        ...count.rows.map((r) => r["QUERY PLAN"]),
      );
    }
    plans.push(...(await unfilteredTotals(pool, world.orgId)));
    const writes = await insertCost(pool, world.orgId);
    await pool.end();

    const exportSamples: number[] = [];
    let truncated = "";
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const res = await fetch(`${system.gatewayUrl}/api/v1${org}/export?format=csv`, {
        headers: { authorization: `Bearer ${world.owner.token}` },
      });
      const text = await res.text();
      exportSamples.push(performance.now() - start);
      truncated = `${res.headers.get("x-truncated")}, ${text.split("\r\n").length - 2} rows, ${(text.length / 1024 / 1024).toFixed(1)} MiB`;
    }
    process.stdout.write(
      [
        `machine: ${machine()}`,
        `seeded ${counted[0]?.n} entries (${counted[0]?.org} in the measured org) with VACUUM ANALYZE in ${(seedMs / 1000).toFixed(1)} s`,
        ...lines,
        `${summary("GET export?format=csv (10,000 rows)", exportSamples)} (X-Truncated ${truncated})`,
        ...plans,
        ...writes,
      ].join("\n") + "\n",
    );
  } finally {
    await system.stop();
  }
}

/** The unfiltered totals as the lists read them: counted (before tenancy 0010), and kept (after it, where the tables exist). */
async function unfilteredTotals(pool: Pool, orgId: string): Promise<string[]> {
  const { rows: kept } = await pool.query<{ on: boolean }>("SELECT to_regclass('audit_entry_totals') IS NOT NULL AS on");
  const queries: Array<[string, string, unknown[]]> = [
    ["count, no filter (org)", "SELECT count(*)::int FROM audit_entries WHERE org_id = $1", [orgId]],
    ["count, no filter (admin)", "SELECT count(*)::int FROM audit_entries", []],
  ];
  if (kept[0]?.on)
    queries.push(
      ["kept total, org", "SELECT coalesce(sum(entries), 0)::int FROM audit_org_entry_counts WHERE org_id = $1", [orgId]],
      ["kept total, admin", "SELECT coalesce(sum(entries), 0)::int FROM audit_entry_totals", []],
    );
  const out: string[] = [];
  for (const [label, sql, params] of queries) {
    await pool.query(sql, params); // warm
    const plan = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    out.push(`-- ${label}`, ...plan.rows.map((r) => r["QUERY PLAN"]));
  }
  return out;
}

/**
 * What one recorded entry costs the database: single-row INSERT ... ON CONFLICT DO NOTHING into the
 * measured org, each its own transaction, as the audit consumer writes them. Rounds alternate the
 * counting triggers on and off (session_replication_role = replica skips ordinary triggers for that
 * session only) on one connection; the backend's CPU (from /proc) per insert is what load does not
 * change much. Then 4 connections at once, triggers on, for queueing on the counter rows.
 * Run last: the entries inserted with the triggers off are not counted.
 */
async function insertCost(pool: Pool, orgId: string): Promise<string[]> {
  const ROUND = Number(process.env.BENCH_INSERTS ?? 500);
  const insert = `INSERT INTO audit_entries (id, org_id, actor_id, actor_type, action, category, severity, resource_type, resource_id,
                                             metadata, created_at)
                  VALUES (gen_random_uuid(), $1, $1, 'user', 'inbox.created', 'inbox', 'info', 'inbox', md5(random()::text), '{}', now())
                  ON CONFLICT DO NOTHING`;
  const client = await pool.connect();
  const out: string[] = [];
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const pid = rows[0]!.pid;
    const results: Record<"on" | "off", { wall: number[]; cpu: number[] }> = { on: { wall: [], cpu: [] }, off: { wall: [], cpu: [] } };
    for (let round = 0; round < 6; round++) {
      const mode = round % 2 === 0 ? "on" : "off";
      await client.query(`SET session_replication_role = ${mode === "on" ? "origin" : "replica"}`);
      for (let i = 0; i < 20; i++) await client.query(insert, [orgId]); // warm
      const cpu0 = cpuMs(pid);
      for (let i = 0; i < ROUND; i++) {
        const start = performance.now();
        await client.query(insert, [orgId]);
        results[mode].wall.push(performance.now() - start);
      }
      results[mode].cpu.push((cpuMs(pid) - cpu0) / ROUND);
    }
    await client.query("SET session_replication_role = origin");
    for (const mode of ["on", "off"] as const)
      out.push(
        `${summary(`INSERT one entry, triggers ${mode}, 1 connection`, results[mode].wall)}; backend CPU per insert by round ${results[
          mode
        ].cpu
          .map((c) => `${c.toFixed(3)} ms`)
          .join(", ")}`,
      );
    const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${insert}`, [orgId]);
    out.push("-- INSERT one entry, triggers on", ...plan.rows.map((r) => r["QUERY PLAN"]));
  } finally {
    client.release();
  }
  const concurrent: number[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const c = await pool.connect();
      try {
        for (let i = 0; i < ROUND / 2; i++) {
          const start = performance.now();
          await c.query(insert, [orgId]);
          concurrent.push(performance.now() - start);
        }
      } finally {
        c.release();
      }
    }),
  );
  out.push(
    `${summary("INSERT one entry, triggers on, 4 connections at once", concurrent)} (p50 ${percentile(concurrent, 50).toFixed(2)} ms)`,
  );
  return out;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
