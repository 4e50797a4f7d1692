import { testInfra, TEST_INTERNAL_SECRET, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { loadGatewayConfig, type GatewayConfig } from "../src/config";

/**
 * The gateway's configuration in its integration tests: the test secrets, the real NATS and Redis
 * under the namespace `ns` (Redis keys prefixed `<ns>:`), logs silent; `extra` adds or replaces keys.
 */
export function gatewayTestConfig(ns: string, extra: Record<string, unknown> = {}): GatewayConfig {
  return loadGatewayConfig(
    {},
    {
      "log.level": "silent",
      "internal.secret": TEST_INTERNAL_SECRET,
      "auth.jwt_secret": TEST_JWT_SECRET,
      "nats.url": testInfra.natsUrl,
      "nats.namespace": ns,
      "redis.url": testInfra.redisUrl,
      "redis.key_prefix": `${ns}:`,
      ...extra,
    },
  );
}
