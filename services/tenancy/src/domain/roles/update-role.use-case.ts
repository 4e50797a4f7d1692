import type { Role, UpdateRoleBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { SYSTEM_ROLES } from "./role-catalog";
import { customRoleProblem } from "./role-rules";

/** Changes a custom role's label, description or permissions; system roles never change (409). */
export async function updateRole(deps: TenancyDeps, ctx: RequestCtx, input: { roleId: string } & UpdateRoleBody): Promise<Role> {
  if (SYSTEM_ROLES.some((r) => r.id === input.roleId)) throw errors.conflict("system roles cannot be changed");
  return deps.data.write(async (repos, events) => {
    const role = await repos.roles.get(input.roleId);
    if (!role) throw errors.notFound("role");
    const problem = customRoleProblem({ scope: role.scope, ...(input.permissions ? { permissions: input.permissions } : {}) });
    if (problem) throw errors.validation(problem);
    const updated = await repos.roles.update(role.id, {
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.permissions ? { permissions: [...new Set(input.permissions)] } : {}),
    });
    events.audit({
      ctx,
      action: "role.updated",
      org_id: null,
      target: { type: "role", id: role.id },
      metadata: { fields: Object.keys(input).filter((k) => k !== "roleId") },
    });
    return updated;
  });
}
