import { randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { redisKeys } from "@burnbox/contracts";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { uniqueNamespace, TEST_INTERNAL_SECRET, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { Authenticator } from "../src/http/authenticate";
import { loadGatewayConfig } from "../src/config";
import { gatewayTestConfig } from "./gateway-config";

const NEW_SECRET = "rotated-jwt-secret-0123456789abcdef0123456789";
const OTHER_SECRET = "never-configured-secret-0123456789abcdef0123";

/**
 * Rotating the JWT secret (docs/operations.md, "Rotating the JWT secret"): while a rotation rolls
 * out, the gateway admits access tokens signed with either of its two secrets, so neither the
 * tokens identity signed before nor those it signs after its own rollout get a 401; once the
 * previous secret is removed, its tokens are refused. On real Redis and NATS.
 */
describe("Authenticator: a JWT secret rotation", () => {
  const ns = uniqueNamespace();
  const prefix = `${ns}:`;
  let infra: Infra;

  beforeAll(async () => {
    infra = await startInfra({ config: gatewayTestConfig(ns), redis: true });
    await infra.redis?.set(redisKeys.revocationsSeeded(prefix), "1");
  });

  afterAll(async () => {
    await infra.close();
  });

  const authenticator = (jwtSecret: string, jwtSecretPrevious?: string) =>
    new Authenticator({
      jwtSecret,
      ...(jwtSecretPrevious ? { jwtSecretPrevious } : {}),
      redis: infra.redis as NonNullable<Infra["redis"]>,
      redisPrefix: prefix,
      nc: infra.nc,
      namespace: ns,
      logger: infra.logger,
      apiKeyCacheTtlSeconds: 60,
    });
  const token = (secret: string, over: Record<string, unknown> = {}) =>
    jwt.sign(
      {
        sub: randomUUID(),
        email: "u@example.test",
        is_system_admin: false,
        sid: randomUUID(),
        exp: Math.floor(Date.now() / 1000) + 900,
        ...over,
      },
      secret,
      { algorithm: "HS256" },
    );
  const outcome = async (auth: Authenticator, t: string) => {
    const o = await auth.authenticate(`Bearer ${t}`, "127.0.0.1");
    return o.kind === "rejected" ? o.error.message : o.kind;
  };

  it("when the gateway holds the new secret and the previous one, then tokens signed with either are admitted and others refused", async () => {
    const rotating = authenticator(NEW_SECRET, TEST_JWT_SECRET);
    expect(await outcome(rotating, token(TEST_JWT_SECRET))).toBe("authenticated");
    expect(await outcome(rotating, token(NEW_SECRET))).toBe("authenticated");
    expect(await outcome(rotating, token(OTHER_SECRET))).toBe("invalid or expired token");
  });

  it("when a token of the previous secret has expired or its session is revoked, then it is refused like any other", async () => {
    const rotating = authenticator(NEW_SECRET, TEST_JWT_SECRET);
    expect(await outcome(rotating, token(TEST_JWT_SECRET, { exp: Math.floor(Date.now() / 1000) - 1 }))).toBe("invalid or expired token");
    const sid = randomUUID();
    await infra.redis?.set(redisKeys.revokedSession(prefix, sid), "1");
    expect(await outcome(rotating, token(TEST_JWT_SECRET, { sid }))).toBe("session revoked");
  });

  it("when every step of the rotation rolls out, then no token in use is refused, and the old one only after its removal", async () => {
    // before: every gateway and identity hold the old secret
    const before = authenticator(TEST_JWT_SECRET);
    // step 1, the gateways: the new secret, the old one as previous (identity still signs with the old)
    const step1 = authenticator(NEW_SECRET, TEST_JWT_SECRET);
    const signedBefore = token(TEST_JWT_SECRET);
    for (const gateway of [before, step1]) expect(await outcome(gateway, signedBefore)).toBe("authenticated");
    // step 2, identity: signs with the new secret; every gateway is a step-1 one by now
    const signedAfter = token(NEW_SECRET);
    expect(await outcome(step1, signedAfter)).toBe("authenticated");
    expect(await outcome(step1, signedBefore)).toBe("authenticated");
    // step 3, once the old tokens have expired (auth.access_token_ttl): the previous secret removed
    const after = authenticator(NEW_SECRET);
    expect(await outcome(after, signedAfter)).toBe("authenticated");
    expect(await outcome(after, token(TEST_JWT_SECRET))).toBe("invalid or expired token");
  });

  it("when BB_AUTH_JWT_SECRET_PREVIOUS is set, then the gateway's configuration holds it; when it is short, then the setting is refused", () => {
    const env = { BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET, BB_AUTH_JWT_SECRET: NEW_SECRET };
    expect(loadGatewayConfig({ ...env, BB_AUTH_JWT_SECRET_PREVIOUS: TEST_JWT_SECRET }).auth).toEqual({
      jwt_secret: NEW_SECRET,
      jwt_secret_previous: TEST_JWT_SECRET,
    });
    expect(loadGatewayConfig(env).auth.jwt_secret_previous).toBeUndefined();
    expect(() => loadGatewayConfig({ ...env, BB_AUTH_JWT_SECRET_PREVIOUS: "short" })).toThrow(/auth\.jwt_secret_previous/);
  });
});
