import type { accountRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import { changePassword } from "../domain/account/change-password.use-case";
import { deleteMe } from "../domain/account/delete-me.use-case";
import { getDatetimeSettings } from "../domain/account/get-datetime-settings.use-case";
import { getMe } from "../domain/account/get-me.use-case";
import { updateMe } from "../domain/account/update-me.use-case";
import type { IdentityDeps } from "../domain/deps";
import { clearRefreshCookie } from "./cookies";

export const accountHandlers = (deps: IdentityDeps): Handlers<typeof accountRoutes> => ({
  getMe: ({ ctx }) => getMe(deps, ctx),
  updateMe: ({ ctx, body }) => updateMe(deps, ctx, body),
  deleteMe: async ({ ctx, body, http }) => {
    const out = await deleteMe(deps, ctx, body);
    clearRefreshCookie(http.res, deps.config);
    return out;
  },
  changePassword: ({ ctx, body }) => changePassword(deps, ctx, body),
  datetimeSettings: ({ ctx }) => getDatetimeSettings(deps, ctx),
});
