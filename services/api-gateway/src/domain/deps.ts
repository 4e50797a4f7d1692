import type { buildOpenApiDocument } from "@burnbox/contracts";

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/**
 * What the gateway's own use cases get. The gateway forwards every other operation; the only
 * ones it answers itself are its documentation, built once at start from the route table.
 */
export interface GatewayDeps {
  openApi: OpenApiDocument;
}
