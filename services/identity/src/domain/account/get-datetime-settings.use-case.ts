import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";

/** The caller's timezone and date/time formats, each falling back to the installation's default. */
export async function getDatetimeSettings(deps: IdentityDeps, ctx: RequestCtx) {
  const user = await deps.data.repos.users.get(ctx.actor.user_id);
  const d = deps.config.defaults;
  return {
    timezone: user?.timezone ?? d.timezone,
    date_format: user?.date_format ?? d.date_format,
    time_format: user?.time_format ?? d.time_format,
  };
}
