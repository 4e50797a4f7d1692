import type { components } from "@burnbox/sdk";
import { useRoles } from "./api";

export type Role = components["schemas"]["Role"];

/** The org roles (built-in and custom), highest rank first (`GET /roles`). */
export function useOrgRoles(): Role[] {
  const q = useRoles({ staleTime: 300_000 });
  return [...(q.data?.org_roles ?? [])].sort((a, b) => b.rank - a.rank);
}

export const roleLabel = (roles: Role[], value: string) => roles.find((r) => r.value === value)?.label ?? value;
