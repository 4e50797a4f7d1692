// The admin statistics stream's rules, apart from React: its frames, the units (the socket: api/live-socket.ts).
import type { components } from "@burnbox/sdk";

export type AdminStats = components["schemas"]["AdminStats"];

const FIELDS = ["total_emails", "active_inboxes", "total_domains", "total_users", "total_teams", "storage_used_bytes"] as const;

/** The statistics of an `{type: "admin.stats", data}` frame (spec 2.7), or null for anything else. */
export function parseStatsFrame(raw: unknown): AdminStats | null {
  if (typeof raw !== "string") return null;
  try {
    const f = JSON.parse(raw) as { type?: unknown; data?: Record<string, unknown> };
    if (f.type !== "admin.stats" || !f.data) return null;
    const data = f.data;
    return FIELDS.every((k) => typeof data[k] === "number") ? (data as unknown as AdminStats) : null;
  } catch {
    return null;
  }
}

/** Bytes for people: 0 B, 512 B, 1.5 KB, 20 MB, 3.2 GB (powers of 1024). */
export function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return i === 0 ? `${value} B` : `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[i]}`;
}

/** Seconds of uptime for people: 45 s, 12 min, 3 h 20 min, 2 d 4 h. */
export function formatUptime(s: number): string {
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
