import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
/** Percentile by nearest rank over a copy of the samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summary(label: string, samples: number[]): string {
  return `${label}: n=${samples.length} p50=${percentile(samples, 50).toFixed(1)}ms p90=${percentile(samples, 90).toFixed(1)}ms p99=${percentile(samples, 99).toFixed(1)}ms max=${Math.max(...samples).toFixed(1)}ms`;
}

export function machine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU time per unit of work of each named process over a phase: snapshot before, then call the result after. */
export function cpuPerUnit(pids: Record<string, number | undefined>): (units: number) => string {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  return (units) =>
    Object.entries(pids)
      .map(([k, pid]) => `${k} ${((cpuMs(pid) - (before[k] ?? 0)) / units).toFixed(2)}`)
      .join(", ");
}

/** The pids of every process whose command name is `comm` (Linux /proc), e.g. all of Postgres's backends. */
export function pidsOf(comm: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, "utf8").trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The CPU milliseconds each process whose command name is one of `comms` has used so far, by pid (those that could be read). */
export function cpuByPid(...comms: string[]): Map<number, number> {
  return new Map(
    comms
      .flatMap((comm) => pidsOf(comm))
      .map((pid) => [pid, cpuMs(pid)] as const)
      .filter(([, ms]) => Number.isFinite(ms)),
  );
}

/**
 * The CPU milliseconds the processes of `now` used since `before` (two `cpuByPid` snapshots): a
 * process started since counts from its start, one gone since is left out (backends and
 * autovacuum workers come and go).
 */
export function cpuUsedSince(before: Map<number, number>, now: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of now) used += ms - (before.get(pid) ?? 0);
  return used;
}

/**
 * CPU per unit of work of the machine's other busy parts over a phase: every Postgres process,
 * the NATS server, Redis and this load generator itself (what the services' figures leave out).
 */
export function othersPerUnit(): (units: number) => string {
  const before = cpuByPid("postgres", "nats-server", "redis-server");
  const self = process.cpuUsage();
  const group = (comm: string) => cpuUsedSince(before, cpuByPid(comm));
  return (units) => {
    const used = process.cpuUsage(self);
    const per = (comm: string) => (group(comm) / units).toFixed(2);
    return `postgres ${per("postgres")}, nats-server ${per("nats-server")}, redis-server ${per("redis-server")}, load generator ${((used.user + used.system) / 1000 / units).toFixed(2)}`;
  };
}

/**
 * A bare baseline server: `code` run by node in a process of its own, which writes its listening
 * port (or ports, space-separated) as its first line of output. Resolves with those ports, its pid
 * and a way to stop it.
 */
export async function spawnBare(
  code: string,
  env: Record<string, string> = {},
): Promise<{ ports: number[]; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  const ports = await new Promise<number[]>((resolve) =>
    child.stdout.once("data", (b: Buffer) => resolve(b.toString().trim().split(" ").map(Number))),
  );
  return { ports, pid: child.pid as number, stop: () => child.kill("SIGKILL") };
}
