import type { platformRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../domain/deps";
import { getPlatform } from "../domain/platform/get-platform.use-case";
import { updatePlatform } from "../domain/platform/update-platform.use-case";

export const platformHandlers = (deps: IdentityDeps): Handlers<typeof platformRoutes> => ({
  adminGetPlatform: ({ ctx }) => getPlatform(deps, ctx),
  adminUpdatePlatform: ({ ctx, body }) => updatePlatform(deps, ctx, body),
});
