import type { User } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { changeUser } from "./change-user";
import { isTimeZone } from "./time-zone";

/** Changes the caller's display name and date/time preferences. */
export async function updateMe(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { display_name?: string; timezone?: string; date_format?: string; time_format?: string },
): Promise<User> {
  const userId = ctx.actor.user_id;
  if (input.timezone && !isTimeZone(input.timezone)) {
    throw errors.validation("timezone must be an IANA time zone such as Europe/Paris", [
      { path: "timezone", message: "unknown time zone" },
    ]);
  }
  return changeUser(deps, ctx, {
    userId,
    changes: { displayName: input.display_name, timezone: input.timezone, dateFormat: input.date_format, timeFormat: input.time_format },
    action: "user.updated",
    metadata: { fields: Object.keys(input) },
  });
}
