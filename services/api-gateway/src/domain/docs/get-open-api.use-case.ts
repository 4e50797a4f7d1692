import type { Actor } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { GatewayDeps, OpenApiDocument } from "../deps";

/** Public: the document describes every operation, whoever asks. */
export function getOpenApi(deps: GatewayDeps, _ctx: RequestCtx<Actor | null>): Promise<OpenApiDocument> {
  return Promise.resolve(deps.openApi);
}
