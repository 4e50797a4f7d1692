import { Tooltip } from "@mantine/core";
import { useEffect, useState } from "react";
import { useDatetimeSettingsQuery } from "../api/datetime-settings";
import { useFirstPagePainted } from "../lib/first-paint";
import { useSession } from "../api/session";
import { BROWSER_DEFAULTS, formatAbsolute, formatRelative, type DatetimeSettings } from "../lib/datetime";

/**
 * The user's timezone and formats (`GET /auth/datetime-settings`); the browser's while signed out
 * and, on a cold load, until the first page has painted (src/lib/first-paint.ts).
 */
export function useDatetimeSettings(): DatetimeSettings {
  const signedIn = useSession().status === "signed-in";
  const painted = useFirstPagePainted();
  const q = useDatetimeSettingsQuery({ enabled: signedIn && painted, staleTime: Infinity });
  return q.data ?? BROWSER_DEFAULTS;
}

/** The current time, ticking every `everyMs` (for relative times and countdowns). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/**
 * A time as the user reads times: `relative` ("5 minutes ago", the exact time on hover) or
 * `absolute` ("2026-11-27 14:05" in the user's timezone and formats). Always a <time dateTime>.
 */
export function Time({ value, mode = "relative" }: { value: string | Date | null | undefined; mode?: "relative" | "absolute" }) {
  const now = useNow();
  if (!value) return <span>never</span>;
  const iso = typeof value === "string" ? value : value.toISOString();
  if (mode === "absolute")
    return (
      <time dateTime={iso}>
        <Absolute iso={iso} />
      </time>
    );
  // the exact time is formatted only when the tooltip opens (its label renders then)
  return (
    <Tooltip label={<Absolute iso={iso} />} withArrow>
      <time dateTime={iso}>{formatRelative(iso, now)}</time>
    </Tooltip>
  );
}

function Absolute({ iso }: { iso: string }) {
  return formatAbsolute(iso, useDatetimeSettings());
}

/** An absolute time in the user's timezone and formats (`GET /auth/datetime-settings`). */
export function useAbsolute(): (iso: string) => string {
  const settings = useDatetimeSettings();
  return (iso) => formatAbsolute(iso, settings);
}
