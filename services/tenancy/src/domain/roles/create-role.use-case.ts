import { randomUUID } from "node:crypto";
import type { CreateRoleBody, Role } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { SYSTEM_ROLES } from "./role-catalog";
import { customRoleProblem } from "./role-rules";

/** Creates a custom role (system administrators; the route's auth checks that). */
export async function createRole(deps: TenancyDeps, ctx: RequestCtx, input: CreateRoleBody): Promise<Role> {
  const problem = customRoleProblem(input);
  if (problem) throw errors.validation(problem);
  if (SYSTEM_ROLES.some((r) => r.scope === input.scope && r.value === input.value))
    throw errors.conflict("a role with this value already exists");
  return deps.data.write(async (repos, events) => {
    const role = await repos.roles.create({
      id: randomUUID(),
      scope: input.scope,
      value: input.value,
      label: input.label,
      description: input.description ?? "",
      rank: input.rank,
      permissions: [...new Set(input.permissions)],
    });
    events.audit({
      ctx,
      action: "role.created",
      org_id: null,
      target: { type: "role", id: role.id },
      metadata: { scope: role.scope, value: role.value, rank: role.rank, permissions: role.permissions },
    });
    return role;
  });
}
