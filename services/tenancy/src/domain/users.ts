import { RpcName, type LookedUpUser } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "./deps";

/** Users' email and name from identity, by id (and by email); unknown ones are absent from the map. */
export async function lookupUsers(deps: TenancyDeps, q: { ids?: string[]; emails?: string[] }): Promise<Map<string, LookedUpUser>> {
  const ids = q.ids ?? [];
  const emails = q.emails ?? [];
  if (ids.length === 0 && emails.length === 0) return new Map();
  try {
    const reply = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.lookupUsers, { user_ids: ids, emails });
    return new Map(reply.users.map((u) => [u.id, u]));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("user directory unavailable");
    throw err;
  }
}

/** Whether `password` is the user's (`has_password` false: an SSO-only account). */
export async function checkPassword(
  deps: TenancyDeps,
  userId: string,
  password: string,
): Promise<{ valid: boolean; has_password: boolean }> {
  try {
    return await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.verifyPassword, { user_id: userId, password });
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("user directory unavailable");
    throw err;
  }
}

/** A case-insensitive substring match of a user's email or name (member searches). */
export const matchesUser = (u: LookedUpUser | undefined, q: string | undefined): boolean =>
  !q || (u !== undefined && (u.email.toLowerCase().includes(q.toLowerCase()) || u.display_name.toLowerCase().includes(q.toLowerCase())));
