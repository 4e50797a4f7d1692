/** The interactive documentation: swagger-ui from the gateway's own assets, reading the document beside it. */
export interface DocsPage {
  html: string;
  /** The page runs no inline script: its one script of its own is served as an asset. */
  contentSecurityPolicy: string;
}

// Asset URLs are relative to the page (`/api/v1/docs`), so they resolve under `/api/v1/docs/assets/`.
export const DOCS_PAGE = `<!doctype html>
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
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: "docs/openapi.json", dom_id: "#docs", deepLinking: true, persistAuthorization: false });`;

export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";
