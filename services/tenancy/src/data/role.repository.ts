import type { Role, RoleScope } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { uniqueOr, type Client } from "./prisma";

type RoleRow = Prisma.RoleGetPayload<object>;

const toRole = (r: RoleRow): Role => ({
  id: r.id,
  // the column only ever holds RoleScope values: this service is its one writer
  scope: r.scope as RoleScope,
  value: r.value,
  label: r.label,
  description: r.description,
  rank: r.rank,
  is_system: false,
  permissions: r.permissions,
});

/** Custom roles: installation-wide, defined by system administrators. */
export class RoleRepository {
  constructor(private readonly db: Client) {}

  async list(): Promise<Role[]> {
    return (await this.db.role.findMany({ orderBy: [{ scope: "asc" }, { rank: "desc" }, { value: "asc" }] })).map(toRole);
  }

  async get(roleId: string): Promise<Role | null> {
    const row = await this.db.role.findUnique({ where: { id: roleId } });
    return row ? toRole(row) : null;
  }

  async byValue(scope: RoleScope, value: string): Promise<Role | null> {
    const row = await this.db.role.findUnique({ where: { scope_value: { scope, value } } });
    return row ? toRole(row) : null;
  }

  /** A value taken in its scope is a conflict. */
  async create(fields: Omit<Role, "is_system">): Promise<Role> {
    return toRole(await uniqueOr(this.db.role.create({ data: fields }), () => errors.conflict("a role with this value already exists")));
  }

  async update(roleId: string, changes: { label?: string; description?: string; permissions?: string[] }): Promise<Role> {
    return toRole(await this.db.role.update({ where: { id: roleId }, data: changes }));
  }

  async delete(roleId: string): Promise<void> {
    await this.db.role.deleteMany({ where: { id: roleId } });
  }

  /** Whether any org or team membership holds the role. */
  async inUse(role: Pick<Role, "scope" | "value">): Promise<boolean> {
    const held =
      role.scope === "org"
        ? await this.db.orgMember.findFirst({ where: { role: role.value }, select: { userId: true } })
        : await this.db.teamMember.findFirst({ where: { role: role.value }, select: { userId: true } });
    return held !== null;
  }
}
