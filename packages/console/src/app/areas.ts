// The registry: every src/pages/<area>/routes.tsx, found at build time. (Kept apart from ./area,
// which those files import: an eager glob importing its own importer would see it half-evaluated.)
import type { Area, NavEntry } from "./area";

// every area's routes.tsx, found at build time
const modules = import.meta.glob<{ default: Area }>("../pages/*/routes.tsx", { eager: true });

export const areas: Area[] = Object.values(modules)
  .map((m) => m.default)
  .sort((a, b) => a.id.localeCompare(b.id));

export const navEntries: NavEntry[] = areas.flatMap((a) => a.nav ?? []).sort((a, b) => a.order - b.order);
