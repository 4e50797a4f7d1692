import { randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { redisKeys } from "@burnbox/contracts";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { uniqueNamespace, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { Authenticator } from "../src/http/authenticate";
import { gatewayTestConfig } from "./gateway-config";

/** The authenticator alone on real Redis and NATS, with a clock the test moves. */
describe("Authenticator: access tokens verified once, checked on every use", () => {
  const ns = uniqueNamespace();
  const prefix = `${ns}:`;
  let infra: Infra;
  let now = Date.now();
  let auth: Authenticator;

  beforeAll(async () => {
    const config = gatewayTestConfig(ns);
    infra = await startInfra({ config, redis: true });
    await infra.redis?.set(redisKeys.revocationsSeeded(prefix), "1");
    auth = new Authenticator({
      jwtSecret: TEST_JWT_SECRET,
      redis: infra.redis as NonNullable<Infra["redis"]>,
      redisPrefix: prefix,
      nc: infra.nc,
      namespace: ns,
      logger: infra.logger,
      apiKeyCacheTtlSeconds: 60,
      now: () => now,
    });
  });

  afterAll(async () => {
    await infra.close();
  });

  const seconds = () => Math.floor(now / 1000);
  const token = (over: Record<string, unknown> = {}) =>
    jwt.sign(
      { sub: randomUUID(), email: "u@example.test", is_system_admin: false, sid: randomUUID(), exp: seconds() + 900, ...over },
      TEST_JWT_SECRET,
      { algorithm: "HS256" },
    );
  const outcome = async (t: string) => {
    const o = await auth.authenticate(`Bearer ${t}`, "127.0.0.1");
    return o.kind === "rejected" ? o.error.message : o.kind;
  };

  it("when a token that was admitted expires, then its next use is refused (exp checked on every use)", async () => {
    const t = token({ exp: seconds() + 60 });
    expect(await outcome(t)).toBe("authenticated");
    expect(await outcome(t)).toBe("authenticated");
    now += 59_000;
    expect(await outcome(t)).toBe("authenticated");
    now += 1_000;
    expect(await outcome(t)).toBe("invalid or expired token");
    now -= 1_000; // the clock set back: verified again, as jsonwebtoken would with that clock: admitted
    expect(await outcome(t)).toBe("authenticated");
  });

  it("when a token is not valid yet (nbf), then it is refused until its time, then admitted", async () => {
    const t = token({ nbf: seconds() + 30 });
    expect(await outcome(t)).toBe("invalid or expired token");
    now += 30_000;
    expect(await outcome(t)).toBe("authenticated");
    now -= 30_000;
    expect(await outcome(t)).toBe("invalid or expired token");
    now += 30_000;
  });

  it("when the session of an admitted token is revoked, then its next use is refused at once", async () => {
    const sid = randomUUID();
    const t = token({ sid });
    expect(await outcome(t)).toBe("authenticated");
    await infra.redis?.set(redisKeys.revokedSession(prefix, sid), "1");
    expect(await outcome(t)).toBe("session revoked");
  });

  it("when an admitted token's signature or claims are altered, then the altered token is refused", async () => {
    const t = token();
    expect(await outcome(t)).toBe("authenticated");
    const [head, body, sig] = t.split(".") as [string, string, string];
    const admin = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), is_system_admin: true })).toString(
      "base64url",
    );
    expect(await outcome(`${head}.${admin}.${sig}`)).toBe("invalid or expired token");
    expect(await outcome(`${head}.${body}.${sig.slice(0, -2)}AA`)).toBe("invalid or expired token");
    expect(await outcome(jwt.sign({ sub: "not-a-uuid", email: "x", is_system_admin: false, sid: "s" }, TEST_JWT_SECRET))).toBe(
      "invalid or expired token",
    );
  });
});
