import { defineRoutes } from "../routes/route";
import { OpenApiDocumentBody } from "./docs.schemas";

export const docsRoutes = defineRoutes({ service: "api-gateway", tag: "Docs" }, [
  {
    operationId: "getDocs",
    method: "get",
    path: "/docs",
    auth: "public",
    summary: "Interactive API documentation",
    responses: { 200: { description: "HTML page" } },
  },
  {
    operationId: "getOpenApi",
    method: "get",
    path: "/docs/openapi.json",
    auth: "public",
    summary: "This OpenAPI 3.0 document",
    responses: { 200: { description: "OpenAPI document", schema: OpenApiDocumentBody } },
  },
] as const);
