// What the shell defers on a cold load until the first page has shown what it is for: the bell
// (its count, its ticket and WebSocket), the navigation's org permissions and the datetime
// settings. On this machine (two cores shared by the browser and every service) each of those
// requests and renders took time from the first page's own; none of them is needed for its
// first paint. A page opts in from its route's loader on a cold load (`holdUntilPainted()`, while
// the session is still starting, so before the shell first renders) and says when it has painted
// (`markPainted()`); on every other page nothing waits. Once painted, for good.
import { useSyncExternalStore } from "react";

/** The most a page may hold the deferred work back (its data never came, it never said). */
export const HOLD_AT_MOST_MS = 5000;

let held = false;
let painted = false;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: { held?: boolean; painted?: boolean }): void {
  held = next.held ?? held;
  painted = next.painted ?? painted;
  for (const l of listeners) l();
}

/** A route's loader: the deferred work waits until its page calls `markPainted()` (at most HOLD_AT_MOST_MS). */
export function holdUntilPainted(): void {
  if (painted || held) return;
  set({ held: true });
  timer = setTimeout(() => set({ painted: true }), HOLD_AT_MOST_MS);
}

/**
 * The page has committed its first meaningful content (rows, an empty state or an error): the
 * deferred work may start once the browser has painted it (the next frame, then a task).
 */
export function markPainted(): void {
  if (painted) return;
  const go = () => {
    clearTimeout(timer);
    set({ painted: true });
  };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(go, 0));
  else go();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
/** True once nothing holds the deferred work back (at once on a page that does not opt in). */
export const isFirstPagePainted = (): boolean => !held || painted;

/** `isFirstPagePainted()` for a component, which renders again when it turns true. */
export function useFirstPagePainted(): boolean {
  return useSyncExternalStore(subscribe, isFirstPagePainted);
}

/** Tests only: back to a fresh page. */
export function resetFirstPaintForTests(): void {
  clearTimeout(timer);
  held = false;
  painted = false;
}
