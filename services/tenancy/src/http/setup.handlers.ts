import { Router, type NextFunction, type Request, type Response } from "express";
import type { setupRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { completeSetup } from "../domain/setup/complete-setup.use-case";
import { getSetupStatus } from "../domain/setup/get-setup-status.use-case";
import { setupProgress } from "../domain/setup/setup-progress";
import type { SetupTokenCheck } from "../domain/setup/setup-token";
import { testSetupSmtp } from "../domain/setup/test-setup-smtp.use-case";
import { testSetupStorage } from "../domain/setup/test-setup-storage.use-case";

export const setupHandlers = (deps: TenancyDeps): Handlers<typeof setupRoutes> => ({
  getSetupStatus: () => getSetupStatus(deps),
  completeSetup: async ({ ctx, body, http }) => {
    const out = await completeSetup(deps, body, { ip: ctx.ip, userAgent: ctx.userAgent, origin: http.req.header("origin") ?? null });
    if (out.cookie) {
      const c = out.cookie;
      http.res.cookie(c.name, c.value, {
        httpOnly: c.http_only,
        secure: c.secure,
        sameSite: c.same_site,
        path: c.path,
        maxAge: c.max_age_ms,
      });
    }
    return out.result;
  },
  setupTestSmtp: ({ body }) => testSetupSmtp(deps, body),
  setupTestStorage: ({ body }) => testSetupStorage(deps, body),
});

/**
 * Runs before the setup routes' body validation, as authentication runs before it elsewhere: once
 * setup is complete, complete is 409 and the tests 403 whatever the body; before, a missing or
 * wrong `setup_token` is 403 whatever else the body holds.
 */
export function setupGuard(deps: TenancyDeps, tokenOk: SetupTokenCheck): Router {
  const router = Router();
  const gate = (whenComplete: () => Error) => async (req: Request, _res: Response, next: NextFunction) => {
    if ((await setupProgress(deps)) === "complete") throw whenComplete();
    const body: unknown = req.body;
    const token = body && typeof body === "object" ? (body as { setup_token?: unknown }).setup_token : undefined;
    if (!tokenOk(typeof token === "string" ? token : undefined)) throw errors.forbidden("invalid setup token");
    next();
  };
  router.post(
    "/setup/complete",
    gate(() => errors.conflict("setup is already complete")),
  );
  router.post(
    "/setup/test-smtp",
    gate(() => errors.forbidden("setup is already complete")),
  );
  router.post(
    "/setup/test-storage",
    gate(() => errors.forbidden("setup is already complete")),
  );
  return router;
}
