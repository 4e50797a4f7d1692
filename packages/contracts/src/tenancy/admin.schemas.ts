import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Org } from "./orgs.schemas";

/** `GET /admin/orgs`: every org on the platform, with its counts. */
export const AdminOrg = Org.extend({
  member_count: z.number().int(),
  team_count: z.number().int(),
  domain_count: z.number().int(),
}).openapi("AdminOrg");
export type AdminOrg = z.infer<typeof AdminOrg>;

export const AdminOrgsQuery = PaginationQuery.extend({ q: z.string().max(200).optional() });
export type AdminOrgsQuery = z.infer<typeof AdminOrgsQuery>;

/** One dependency or service as `GET /admin/health` sees it; `error` is a short generic reason. */
export const HealthCheck = z
  .object({ status: z.enum(["ok", "error"]), latency_ms: z.number().int().min(0), error: z.string().optional() })
  .openapi("HealthCheck");
export type HealthCheck = z.infer<typeof HealthCheck>;

/** `GET /admin/health`: never a connection string or a credential; 503 when any check is in error. */
export const AdminHealth = z
  .object({
    status: z.enum(["ok", "degraded"]),
    uptime_s: z.number().int().min(0),
    services: z.record(z.string(), HealthCheck),
  })
  .openapi("AdminHealth");
export type AdminHealth = z.infer<typeof AdminHealth>;

/** `GET /admin/version`: the package version, and the commit and build date when the build recorded them. */
export const AdminVersion = z
  .object({ version: z.string(), commit: z.string().optional(), build_date: z.string().optional() })
  .openapi("AdminVersion");
export type AdminVersion = z.infer<typeof AdminVersion>;
