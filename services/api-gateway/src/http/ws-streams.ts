import { Router } from "express";
import { ErrorCode, expressPath, WS_ROUTES } from "@burnbox/contracts";
import { AppError } from "@burnbox/service-kit/runtime";

/**
 * The WebSocket streams of the contracts, asked for without an upgrade: 426. Their upgrades never
 * reach express (the server's `upgrade` event passes them to realtime-gateway).
 */
export function upgradeRequiredRouter(): Router {
  const router = Router();
  for (const stream of WS_ROUTES) {
    router.get(expressPath(stream.path), (_req, _res, next) => {
      next(new AppError(ErrorCode.upgrade_required, "a WebSocket stream: open it with an upgrade and a ticket from POST /ws/ticket"));
    });
  }
  return router;
}
