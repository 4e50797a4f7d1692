import type { ReactNode } from "react";
import { NotAllowed, useIsSystemAdmin } from "../../api/permissions";
import { PageHeader } from "../../components";

/**
 * The admin pages' own check: the navigation hides them from everyone but system admins, and a
 * typed URL lands here, which says why instead of showing the API's 403s.
 */
export function AdminGate({ title, children }: { title: string; children: ReactNode }) {
  const isSystemAdmin = useIsSystemAdmin();
  if (isSystemAdmin) return <>{children}</>;
  return (
    <>
      <PageHeader title={title} />
      <NotAllowed>This page is for system administrators only. Your account is not a system administrator of this BurnBox.</NotAllowed>
    </>
  );
}
