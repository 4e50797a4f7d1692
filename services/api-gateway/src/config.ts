import { z } from "zod";
import { baseConfigShape, loadConfig, secretSchema } from "@burnbox/service-kit/runtime";
import { isUpstreamList } from "./http/upstreams";

/** One upstream URL, or a comma-separated list of a service's replicas (requests go round-robin). */
const url = z.string().refine(isUpstreamList, "must be one or more http(s) URLs, comma-separated");

export const GatewayConfig = z.object({
  ...baseConfigShape("api-gateway", 8080),
  auth: z.object({
    jwt_secret: secretSchema,
    /**
     * During a rotation, the other secret whose access tokens are still admitted (identity signs
     * with `auth.jwt_secret` of its own configuration only): docs/operations.md, "Rotating the
     * JWT secret". Unset outside a rotation.
     */
    jwt_secret_previous: secretSchema.optional(),
  }),
  services: z
    .object({
      identity_url: url.default("http://127.0.0.1:8101"),
      tenancy_url: url.default("http://127.0.0.1:8102"),
      inbox_url: url.default("http://127.0.0.1:8103"),
      webhook_dispatcher_url: url.default("http://127.0.0.1:8104"),
      realtime_gateway_url: url.default("http://127.0.0.1:8105"),
      timeout_ms: z.number().int().positive().default(30_000),
    })
    .prefault({}),
  rate_limit: z
    .object({
      enabled: z.boolean().default(true),
      /** Peers (IPs or CIDRs) whose X-Forwarded-For is believed; nobody else's is. */
      trusted_proxies: z.array(z.string()).default([]),
      authenticated_per_minute: z.number().int().positive().default(300),
      unauthenticated_per_minute: z.number().int().positive().default(60),
      login_per_minute: z.number().int().positive().default(10),
      forgot_password_per_hour: z.number().int().positive().default(3),
    })
    .prefault({}),
  api_keys: z.object({ cache_ttl_seconds: z.number().int().positive().default(60) }).prefault({}),
  /**
   * Strict-Transport-Security on answers to requests that came over https (TLS here, or
   * X-Forwarded-Proto: https from one of rate_limit.trusted_proxies); never over plain http.
   * `max_age_seconds: 0` tells browsers to forget an earlier one; `enabled: false` sends none.
   */
  hsts: z
    .object({
      enabled: z.boolean().default(true),
      max_age_seconds: z.number().int().nonnegative().default(31_536_000),
      include_subdomains: z.boolean().default(true),
    })
    .prefault({}),
  console: z
    .object({
      /**
       * The built web console (packages/console, `vite build`) served at `/`. Empty: `console/`
       * beside the running bundle (services/api-gateway/dist/console, where `pnpm build` puts it).
       * No index.html there: no console, and those paths answer 404 as before.
       */
      dir: z.string().default(""),
    })
    .prefault({}),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): GatewayConfig {
  return loadConfig(GatewayConfig, env, overrides);
}
