import type { ComponentType } from "react";
import type { RouteObject } from "react-router";

/** One entry of the side navigation. */
export interface NavEntry {
  label: string;
  /** An absolute path inside the console, e.g. "/inboxes". */
  to: string;
  /** A small icon component (e.g. from @tabler/icons-react). */
  icon?: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Lower comes first; the areas use 100s (inboxes 100, team 200, notifications 300, account 900). */
  order: number;
  /**
   * Who sees the entry (everyone signed in when absent): `"system-admin"` hides it from everyone
   * else. A page must still check on its own (a hidden link is not a permission).
   */
  audience?: "system-admin";
  /**
   * An org permission key (e.g. `"org.audit.view"`): the entry shows only when the org chosen in
   * the header grants it (`useOrgPermissions`); a system admin holds every one.
   */
  permission?: string;
}

/**
 * A page area of the console: `src/pages/<area>/routes.tsx` exports `default defineArea({...})`
 * and the console finds it by itself (no shared list to edit). Keep routes.tsx small: its pages
 * come in with `lazy`, so each area is its own chunk, fetched when first visited.
 */
export interface Area {
  /** The folder's name. */
  id: string;
  /** Pages inside the signed-in shell (header, navigation); paths are absolute ("/inboxes/:id"). */
  routes?: RouteObject[];
  /** Pages outside the shell, reachable signed out (login, invite links, ...). */
  publicRoutes?: RouteObject[];
  nav?: NavEntry[];
}

export const defineArea = (area: Area): Area => area;

/** A route's page from a module whose default export is the component: `lazy: page(() => import("./X"))`. */
export const page = (load: () => Promise<{ default: ComponentType }>) => async (): Promise<{ Component: ComponentType }> => ({
  Component: (await load()).default,
});
