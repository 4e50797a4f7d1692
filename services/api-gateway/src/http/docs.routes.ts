import path from "node:path";
import { Router, static as serveStatic, type Request, type Response } from "express";
import { buildOpenApiDocument } from "@burnbox/contracts";

const SWAGGER_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>BurnBox API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/assets/init.js"></script>
</body>
</html>`;

// Kept out of the page so the Content-Security-Policy can forbid inline scripts.
const INIT = `window.ui = SwaggerUIBundle({ url: "docs/openapi.json", dom_id: "#docs", deepLinking: true, persistAuthorization: false });`;

/** `/docs` (interactive page, served from the swagger-ui-dist package) and `/docs/openapi.json`. */
export function docsRouter(version: string): Router {
  const document = buildOpenApiDocument(undefined, version);
  const router = Router();
  router.get("/docs/openapi.json", (_req: Request, res: Response) => {
    res.json(document);
  });
  router.get("/docs", (req: Request, res: Response) => {
    // Relative asset URLs need the trailing slash-less path to resolve under /api/v1/.
    if (req.originalUrl.endsWith("/")) {
      res.redirect(301, "../docs");
      return;
    }
    res.setHeader(
      "Content-Security-Policy",
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    );
    res.type("html").send(PAGE);
  });
  router.get("/docs/assets/init.js", (_req: Request, res: Response) => {
    res.type("application/javascript").send(INIT);
  });
  router.use("/docs/assets", serveStatic(SWAGGER_DIR, { index: false, fallthrough: true }));
  return router;
}
