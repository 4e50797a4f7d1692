import type { Actor } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { GatewayDeps } from "../deps";
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE, type DocsPage } from "./docs-page";

/** Public: the page holds no data, only the means to read the public document. */
export function getDocs(_deps: GatewayDeps, _ctx: RequestCtx<Actor | null>): Promise<DocsPage> {
  return Promise.resolve({ html: DOCS_PAGE, contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY });
}
