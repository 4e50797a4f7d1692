import type { SetupStateReply } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

/** Whether a system admin exists, and which one setup created (tenancy decides "complete" with it). */
export async function getSetupState(deps: IdentityDeps): Promise<SetupStateReply> {
  const { setup } = deps.data.repos;
  const [adminExists, setupAdminId] = await Promise.all([setup.adminExists(), setup.setupAdminId()]);
  return { admin_exists: adminExists, setup_admin_id: setupAdminId };
}
