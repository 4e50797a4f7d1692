import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { SYSTEM_ROLES } from "./role-catalog";

/** Deletes a custom role nobody holds; system roles and roles in use are a 409. */
export async function deleteRole(deps: TenancyDeps, ctx: RequestCtx, input: { roleId: string }): Promise<undefined> {
  if (SYSTEM_ROLES.some((r) => r.id === input.roleId)) throw errors.conflict("system roles cannot be deleted");
  await deps.data.write(async (repos, events) => {
    const role = await repos.roles.get(input.roleId);
    if (!role) throw errors.notFound("role");
    if (await repos.roles.inUse(role)) throw errors.conflict("role is in use");
    await repos.roles.delete(role.id);
    events.audit({
      ctx,
      action: "role.deleted",
      org_id: null,
      target: { type: "role", id: role.id },
      metadata: { scope: role.scope, value: role.value },
    });
  });
  return undefined;
}
