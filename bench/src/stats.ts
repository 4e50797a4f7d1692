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
