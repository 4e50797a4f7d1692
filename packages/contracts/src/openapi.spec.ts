import SwaggerParser from "@apidevtools/swagger-parser";
import { buildOpenApiDocument } from "./openapi";
import { ROUTES, WS_ROUTES } from "./routes";
import { defineRoutes } from "./routes/route";

const withExtension = defineRoutes({ service: "api-gateway", tag: "Test" }, [
  {
    operationId: "getExtended",
    method: "get",
    path: "/extended",
    auth: "public",
    summary: "A route carrying a vendor extension",
    responses: { 200: { description: "ok" } },
    extensions: { "x-burnbox-extension": true },
  },
] as const);

describe("buildOpenApiDocument", () => {
  it("when the document of every route is built, then it is a valid OpenAPI document", async () => {
    const doc = buildOpenApiDocument();
    // validate() dereferences in place, so it gets its own copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it("when the document is built, then it lists each route once under its operationId", () => {
    const doc = buildOpenApiDocument();
    const ops = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item as Record<string, { operationId?: string }>));
    expect(ops.map((o) => o.operationId).sort()).toEqual([...ROUTES, ...WS_ROUTES].map((r) => r.operationId).sort());
  });

  it("when a WebSocket stream is documented, then it is a GET taking the ticket that answers 101 with its frames' schema", () => {
    const doc = buildOpenApiDocument();
    for (const w of WS_ROUTES) {
      const op = doc.paths?.[w.path]?.get as {
        parameters?: Array<{ name: string; in: string; required?: boolean }>;
        responses: Record<string, { content?: unknown }>;
      };
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: "ticket", in: "query", required: true }));
      expect(op.responses["101"]?.content).toEqual({
        "application/json": { schema: { $ref: expect.stringMatching(/^#\/components\/schemas\//) } },
      });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "426"]));
    }
  });

  it("when a route has extensions, then its operation carries them", () => {
    const doc = buildOpenApiDocument(withExtension);
    expect(doc.paths?.["/extended"]?.get).toMatchObject({ operationId: "getExtended", "x-burnbox-extension": true });
  });

  it("when a route has no extensions, then its operation has no x- keys", () => {
    const doc = buildOpenApiDocument();
    const extended = new Set(ROUTES.filter((r) => r.extensions).map((r) => r.operationId));
    const plain = Object.values(doc.paths ?? {})
      .flatMap((item) => Object.values(item as Record<string, { operationId?: string }>))
      .filter((op) => !extended.has(op.operationId ?? ""));
    expect(plain.flatMap(Object.keys).filter((k) => k.startsWith("x-"))).toEqual([]);
  });
});
