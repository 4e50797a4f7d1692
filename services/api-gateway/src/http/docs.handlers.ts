import type { Request, Response } from "express";
import type { gatewayRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { GatewayDeps } from "../domain/deps";
import type { DocsPage } from "../domain/docs/docs-page";
import { getDocs } from "../domain/docs/get-docs.use-case";
import { getOpenApi } from "../domain/docs/get-open-api.use-case";

export const docsHandlers = (deps: GatewayDeps): Handlers<typeof gatewayRoutes> => ({
  getDocs: async ({ ctx, http }) => sendPage(http, await getDocs(deps, ctx)),
  getOpenApi: ({ ctx }) => getOpenApi(deps, ctx),
});

/** HTML, not JSON; and the page's relative asset URLs only resolve from its slash-less address. */
function sendPage(http: { req: Request; res: Response }, page: DocsPage): void {
  if (http.req.originalUrl.endsWith("/")) {
    http.res.redirect(301, "../docs");
    return;
  }
  http.res.setHeader("Content-Security-Policy", page.contentSecurityPolicy);
  http.res.type("html").send(page.html);
}
