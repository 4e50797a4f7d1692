import path from "node:path";
import { Router, static as serveStatic, type Request, type Response } from "express";
import { gatewayRoutes, routeOf } from "@burnbox/contracts";
import { DOCS_INIT_SCRIPT } from "../domain/docs/docs-page";

const SWAGGER_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));

/**
 * The scripts and styles of the docs page (swagger-ui-dist, and the page's init script), under
 * the page's own path: the page names them relative to itself. Static files, not operations.
 */
export function docsAssetsRouter(): Router {
  const assets = `${routeOf(gatewayRoutes, "getDocs").path}/assets`;
  const router = Router();
  router.get(`${assets}/init.js`, (_req: Request, res: Response) => {
    res.type("application/javascript").send(DOCS_INIT_SCRIPT);
  });
  router.use(assets, serveStatic(SWAGGER_DIR, { index: false, fallthrough: true }));
  return router;
}
