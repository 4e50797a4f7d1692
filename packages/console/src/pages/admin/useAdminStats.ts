import { useState } from "react";
import { useLiveSocket, type LiveState } from "../../api/live-socket";
import { parseStatsFrame, type AdminStats } from "./stats";

/**
 * The platform's statistics as `/ws/admin-stats` pushes them (at once on open, then every 10 s);
 * a drop reconnects with backoff. `at` is when the last frame came.
 */
export function useAdminStats(): { stats: AdminStats | null; at: Date | null; state: LiveState } {
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [at, setAt] = useState<Date | null>(null);
  const state = useLiveSocket("/ws/admin-stats", {
    onMessage: (data) => {
      const next = parseStatsFrame(data);
      if (!next) return;
      setStats(next);
      setAt(new Date());
    },
  });
  return { stats, at, state };
}
