import { z } from "../zod";
import { defineRoutes } from "./route";

export const gatewayRoutes = defineRoutes([
  {
    operationId: "getDocs",
    method: "get",
    path: "/docs",
    service: "api-gateway",
    auth: "public",
    tag: "Docs",
    summary: "Interactive API documentation",
    responses: { 200: { description: "HTML page" } },
  },
  {
    operationId: "getOpenApi",
    method: "get",
    path: "/docs/openapi.json",
    service: "api-gateway",
    auth: "public",
    tag: "Docs",
    summary: "This OpenAPI 3.0 document",
    responses: { 200: { description: "OpenAPI document", schema: z.record(z.string(), z.unknown()) } },
  },
] as const);
