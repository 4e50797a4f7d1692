import { Alert } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import type { ReactNode } from "react";
import type { components } from "@burnbox/sdk";
import { useApiQuery } from "./query";
import { workspaceKeys } from "./keys";
import { useUser } from "./session";

export type MyMembership = components["schemas"]["MyMembership"];

/** What the signed-in user may do in an org: the same permission keys the API checks (`GET /orgs/:id/members/me`). */
export interface OrgPermissions {
  /** undefined while loading (offer nothing yet) */
  membership: MyMembership | undefined;
  isLoading: boolean;
  /** true when the user holds `permission` in the org; a system admin holds every one */
  can: (permission: string) => boolean;
}

/**
 * The caller's permissions in `orgId`. Pages use it to leave out what the user may not do
 * (`{perms.can("org.members.manage") && <Button …/>}`); where the API still answers 403 the page
 * shows the API's message (ApiErrorAlert) or <NotAllowed/>.
 */
export function useOrgPermissions(orgId: string | undefined): OrgPermissions {
  const user = useUser();
  const q = useApiQuery(
    workspaceKeys.membership(orgId ?? ""),
    (bb, signal) => bb.api.GET("/orgs/{orgId}/members/me", { params: { path: { orgId: orgId! } }, signal }),
    { enabled: orgId !== undefined, staleTime: 30_000 },
  );
  const granted = new Set(q.data?.permissions ?? []);
  return {
    membership: q.data,
    isLoading: orgId !== undefined && q.isPending,
    can: (permission) => user.is_system_admin || granted.has(permission),
  };
}

/** true for a system admin (the admin console and platform-wide pages). */
export function useIsSystemAdmin(): boolean {
  return useUser().is_system_admin;
}

/** Shown in place of a page or section the user's role does not reach: says why, and who can help. */
export function NotAllowed({ children }: { children?: ReactNode }) {
  return (
    <Alert color="gray" icon={<IconLock size={18} />} title="Not available to your role" role="status">
      {children ?? "Your role does not include this. An owner or admin of the organization can grant it."}
    </Alert>
  );
}
