/**
 * Where a unit of work's cost goes across a whole pipeline, for benchmarks that own their servers
 * (private-infra.ts): the CPU time and context switches of each process or group of processes (a
 * PostgreSQL cluster is its postmaster and every child), and what PostgreSQL did for it, statement
 * by statement (pg_stat_statements), database by database (transactions and rows written) and in
 * WAL bytes. Figures are per unit, so they hold however busy the rest of the machine is.
 */
import { readFileSync, readdirSync } from "node:fs";
import { Client } from "pg";
import { cpuMs, cpuUsedSince } from "./stats";

/** The processes of a group, asked each time (a cluster's backends come and go). */
export type PidSource = () => number[];

/** One pid, or none while it is not known. */
export const onePid =
  (pid: () => number | undefined): PidSource =>
  () => {
    const p = pid();
    return p === undefined ? [] : [p];
  };

/** A process and its children (one level: a PostgreSQL postmaster's backends and workers). */
export function withChildren(parent: () => number): PidSource {
  return () => {
    const root = parent();
    const children = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === root;
        } catch {
          return false;
        }
      });
    return [root, ...children];
  };
}

/** Voluntary plus involuntary context switches of a process so far (each a wakeup or a preemption). */
function switches(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return field("voluntary_ctxt_switches") + field("nonvoluntary_ctxt_switches");
  } catch {
    return 0;
  }
}

interface Reading {
  cpu: Map<number, number>;
  cs: Map<number, number>;
}

function read(source: PidSource): Reading {
  const cpu = new Map<number, number>();
  const cs = new Map<number, number>();
  for (const pid of source()) {
    const ms = cpuMs(pid);
    if (!Number.isFinite(ms)) continue;
    cpu.set(pid, ms);
    cs.set(pid, switches(pid));
  }
  return { cpu, cs };
}

export interface GroupCost {
  name: string;
  cpuMs: number;
  switches: number;
}

/** CPU and context switches per unit of each group over a phase: call the result at its end. */
export function pipelineCost(groups: Record<string, PidSource>): (units: number) => GroupCost[] {
  const before = Object.entries(groups).map(([name, source]) => ({ name, source, reading: read(source) }));
  return (units) =>
    before.map(({ name, source, reading }) => {
      const now = read(source);
      // a process started since counts from its start, one gone since is left out (cpuUsedSince)
      return { name, cpuMs: cpuUsedSince(reading.cpu, now.cpu) / units, switches: cpuUsedSince(reading.cs, now.cs) / units };
    });
}

/** A table of `pipelineCost`'s result, with the sum. */
export function costTable(costs: GroupCost[]): string {
  const total = costs.reduce((a, c) => ({ cpuMs: a.cpuMs + c.cpuMs, switches: a.switches + c.switches }), { cpuMs: 0, switches: 0 });
  const row = (name: string, cpu: number, cs: number) =>
    `  ${name.padEnd(20)} ${cpu.toFixed(2).padStart(7)} ms  ${cs.toFixed(1).padStart(7)} context switches`;
  return [...costs.map((c) => row(c.name, c.cpuMs, c.switches)), row("sum", total.cpuMs, total.switches)].join("\n");
}

/** The summed CPU ms per unit of a cost table. */
export const summedCpu = (costs: GroupCost[]): number => costs.reduce((a, c) => a + c.cpuMs, 0);

/**
 * What a PostgreSQL cluster did over a phase, per unit: every statement's calls, execution time
 * and rows (pg_stat_statements, which the cluster must preload), each database's commits and rows
 * inserted, updated and deleted, and the WAL written. `start()` resets the counters; the result's
 * `report(units)` reads them.
 */
export async function statementProfile(adminUrl: string): Promise<{ report(units: number): Promise<string> }> {
  const db = new Client({ connectionString: adminUrl });
  await db.connect();
  await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await db.query("SELECT pg_stat_statements_reset()");
  const dbBefore = await db.query<{ datname: string; xact: string; ins: string; upd: string; del: string }>(
    `SELECT datname, xact_commit::text AS xact, tup_inserted::text AS ins, tup_updated::text AS upd, tup_deleted::text AS del FROM pg_stat_database WHERE datname IS NOT NULL`,
  );
  const lsnBefore = (await db.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]!.lsn;
  return {
    async report(units) {
      try {
        const per = (v: string | number) => Number(v) / units;
        const lines: string[] = [];
        const wal = await db.query<{ bytes: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes`, [
          lsnBefore,
        ]);
        lines.push(`  WAL written: ${per(wal.rows[0]!.bytes).toFixed(0)} bytes per message`);
        const dbAfter = await db.query<{ datname: string; xact: string; ins: string; upd: string; del: string }>(
          `SELECT datname, xact_commit::text AS xact, tup_inserted::text AS ins, tup_updated::text AS upd, tup_deleted::text AS del FROM pg_stat_database WHERE datname IS NOT NULL`,
        );
        const before = new Map(dbBefore.rows.map((r) => [r.datname, r]));
        lines.push("  per database, per message: commits, rows inserted, updated, deleted");
        for (const r of dbAfter.rows) {
          const b = before.get(r.datname);
          if (!b) continue;
          const d = (k: "xact" | "ins" | "upd" | "del") => per(Number(r[k]) - Number(b[k]));
          if (d("xact") < 0.01 && d("ins") < 0.01) continue;
          lines.push(
            `    ${r.datname.replace(/^e2e[0-9a-f]+_/, "").padEnd(20)} ${d("xact").toFixed(2).padStart(6)} ${d("ins").toFixed(2).padStart(6)} ${d("upd").toFixed(2).padStart(6)} ${d("del").toFixed(2).padStart(6)}`,
          );
        }
        const top = await db.query<{ datname: string; calls: string; ms: string; rows: string; query: string }>(
          `SELECT d.datname, s.calls::text, s.total_exec_time::text AS ms, s.rows::text, s.query
             FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE s.query NOT ILIKE '%pg_stat_statements%'
            ORDER BY s.total_exec_time DESC LIMIT 20`,
        );
        lines.push("  statements by execution time, per message: ms, calls, rows (database: statement)");
        for (const r of top.rows) {
          const text = r.query.replace(/\s+/g, " ").slice(0, 150);
          lines.push(
            `    ${per(r.ms).toFixed(3).padStart(7)} ${per(r.calls).toFixed(2).padStart(6)} ${per(r.rows).toFixed(2).padStart(6)}  ${r.datname.replace(/^e2e[0-9a-f]+_/, "")}: ${text}`,
          );
        }
        const all = await db.query<{ calls: string; ms: string }>(
          `SELECT sum(calls)::text AS calls, sum(total_exec_time)::text AS ms FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'`,
        );
        lines.push(`  all statements: ${per(all.rows[0]!.calls).toFixed(2)} per message, ${per(all.rows[0]!.ms).toFixed(3)} ms executing`);
        return lines.join("\n");
      } finally {
        await db.end();
      }
    },
  };
}
