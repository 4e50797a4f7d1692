// Durations as the API writes them: Go-style strings (`90s`, `15m`, `24h`, `1h30m`) plus `d` for days.

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const WHOLE = /^(\d+(ms|d|h|m|s))+$/;

/** Milliseconds of a duration string, or null when it is not one. */
export function parseDuration(input: string): number | null {
  const s = input.trim();
  if (!WHOLE.test(s)) return null;
  let total = 0;
  for (const m of s.matchAll(/(\d+)(ms|d|h|m|s)/g)) total += Number(m[1]) * (UNIT_MS[m[2]!] ?? 0);
  return total;
}

/** The shortest duration string for a whole number of seconds: 600000 ms -> `10m`, 5400000 -> `1h30m`. */
export function toDurationString(ms: number): string {
  let rest = Math.max(0, Math.round(ms / 1000));
  if (rest === 0) return "0s";
  let out = "";
  for (const [unit, size] of [
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

/** A duration for people: `1 h 30 min`, `45 s`, `2 d 3 h`; two units at most. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  const units: Array<[string, number]> = [
    ["d", 86_400],
    ["h", 3_600],
    ["min", 60],
    ["s", 1],
  ];
  let rest = s;
  for (const [label, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || (parts.length > 0 && parts.length < 2)) parts.push(`${n} ${label}`);
    if (parts.length === 2) break;
  }
  if (parts.length === 0) return "0 s";
  // "1 h 0 min" reads better as "1 h"
  return parts.filter((p, i) => i === 0 || !p.startsWith("0 ")).join(" ");
}

/** The preset durations offered for a TTL or an extension, within [1 min, max]. */
export function ttlPresets(maxMs: number): Array<{ value: string; label: string }> {
  const candidates = [300_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 259_200_000, 604_800_000];
  const picks = candidates.filter((c) => c <= maxMs);
  if (!picks.includes(maxMs) && maxMs > 0) picks.push(maxMs);
  return picks.map((ms) => ({ value: toDurationString(ms), label: humanDuration(ms) }));
}
