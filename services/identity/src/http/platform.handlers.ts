import type { IdentityDeps } from "../domain/deps";
import { getPlatform } from "../domain/platform/get-platform.use-case";
import { updatePlatform } from "../domain/platform/update-platform.use-case";
import type { IdentityHandlers } from "./handlers";

export const platformHandlers = (deps: IdentityDeps): IdentityHandlers<"adminGetPlatform" | "adminUpdatePlatform"> => ({
  adminGetPlatform: ({ ctx }) => getPlatform(deps, ctx),
  adminUpdatePlatform: ({ ctx, body }) => updatePlatform(deps, ctx, body),
});
