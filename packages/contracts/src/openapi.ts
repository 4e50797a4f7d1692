import { OpenAPIRegistry, OpenApiGeneratorV3 } from "@asteasolutions/zod-to-openapi";
import { ErrorEnvelope, RateLimitBody } from "./errors";
import type { RouteDef, WsRouteDef } from "./routes/route";
import { ROUTES, WS_ROUTES } from "./routes";

/**
 * Builds the OpenAPI 3.0 document from the route table and the WebSocket streams, so it lists
 * exactly what is implemented.
 */
export function buildOpenApiDocument(routes: readonly RouteDef[] = ROUTES, version = "0.1.0", streams: readonly WsRouteDef[] = WS_ROUTES) {
  const registry = new OpenAPIRegistry();
  registry.register("Error", ErrorEnvelope);
  registry.register("RateLimited", RateLimitBody);
  const bearer = registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A JWT access token, or a team API key (`bb_` + 64 hex)",
  });
  for (const r of routes) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: never }> }> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      const schema = res.schema ?? (Number(status) >= 400 ? ErrorEnvelope : undefined);
      responses[status] = schema
        ? { description: res.description, content: { "application/json": { schema: schema as never } } }
        : { description: res.description };
    }
    if (!responses["429"]) {
      responses["429"] = { description: "Rate limit exceeded", content: { "application/json": { schema: RateLimitBody as never } } };
    }
    registry.registerPath({
      operationId: r.operationId,
      method: r.method,
      path: r.path,
      tags: [r.tag],
      summary: r.summary,
      ...(r.auth === "public" ? {} : { security: [{ [bearer.name]: [] }] }),
      ...operationDescription(r),
      request: {
        ...(r.request?.params ? { params: r.request.params } : {}),
        ...(r.request?.query ? { query: r.request.query } : {}),
        ...(r.request?.body ? { body: { content: { "application/json": { schema: r.request.body } } } } : {}),
      },
      responses,
      // Specification extensions (`x-…`) are spread into the operation object as they are.
      ...r.extensions,
    });
  }
  for (const w of streams) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: never }> }> = {
      101: {
        description: "Switching Protocols: the WebSocket is open. The server sends JSON text frames of this schema and pings every 30 s.",
        content: { "application/json": { schema: w.frame as never } },
      },
    };
    for (const [status, res] of Object.entries(w.refusals)) {
      responses[status] = {
        description: res.description,
        content: { "application/json": { schema: (res.schema ?? ErrorEnvelope) as never } },
      };
    }
    responses["426"] = {
      description: "A request without a WebSocket upgrade",
      content: { "application/json": { schema: ErrorEnvelope as never } },
    };
    registry.registerPath({
      operationId: w.operationId,
      method: "get",
      path: w.path,
      tags: [w.tag],
      summary: w.summary,
      description: "A WebSocket upgrade (`Connection: Upgrade`, `Upgrade: websocket`); the `ticket` stands for the caller.",
      request: { ...(w.request.params ? { params: w.request.params } : {}), query: w.request.query },
      responses,
    });
  }
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: { title: "BurnBox API", version, description: "Disposable inboxes for teams: REST, WebSocket and signed webhooks." },
    servers: [{ url: "/api/v1" }],
  });
}

/** The operation's prose, then the scope an API key needs (when it needs one). */
function operationDescription(r: RouteDef): { description?: string } {
  const parts = [r.description, r.scope ? `API keys need the scope \`${r.scope}\`.` : undefined].filter((p) => p !== undefined);
  return parts.length > 0 ? { description: parts.join("\n\n") } : {};
}
