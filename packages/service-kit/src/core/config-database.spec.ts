import { z } from "zod";
import { baseConfigShape, databaseShape, loadConfig } from "./config";

const secret = "s".repeat(32);
const identity = z.object({ ...baseConfigShape("identity", 8101), ...databaseShape("burnbox_identity") });
const dispatcher = z.object({ ...baseConfigShape("webhook-dispatcher", 8104), ...databaseShape("burnbox_webhook_dispatcher") });

describe("per-service database URLs", () => {
  it("when nothing is set, then each service uses its own local database", () => {
    expect(loadConfig(identity, { BB_INTERNAL_SECRET: secret }).database.url).toBe("postgresql://postgres@127.0.0.1:5432/burnbox_identity");
  });

  it("when one DATABASE_URL is shared, then it names the server and each service keeps its own database", () => {
    const env = { BB_INTERNAL_SECRET: secret, DATABASE_URL: "postgresql://bb:pw@db.internal:6432/whatever?sslmode=require" };
    expect(loadConfig(identity, env).database.url).toBe("postgresql://bb:pw@db.internal:6432/burnbox_identity?sslmode=require");
    expect(loadConfig(dispatcher, env).database.url).toBe("postgresql://bb:pw@db.internal:6432/burnbox_webhook_dispatcher?sslmode=require");
  });

  it("when <SERVICE>_DATABASE_URL is set, then that service uses it as it is and the others are unaffected", () => {
    const env = {
      BB_INTERNAL_SECRET: secret,
      DATABASE_URL: "postgresql://bb@shared:5432/x",
      WEBHOOK_DISPATCHER_DATABASE_URL: "postgresql://wd@other:5432/hooks",
    };
    expect(loadConfig(dispatcher, env).database.url).toBe("postgresql://wd@other:5432/hooks");
    expect(loadConfig(identity, env).database.url).toBe("postgresql://bb@shared:5432/burnbox_identity");
  });

  it("when BB_DATABASE_URL is set, then it wins over the conventional names", () => {
    const env = { BB_INTERNAL_SECRET: secret, BB_DATABASE_URL: "postgresql://a@b:1/c", IDENTITY_DATABASE_URL: "postgresql://x@y:2/z" };
    expect(loadConfig(identity, env).database.url).toBe("postgresql://a@b:1/c");
  });
});

describe("nats.stream_replicas", () => {
  it("when unset, then streams get one replica; when set, then the number is read and checked", () => {
    expect(loadConfig(identity, { BB_INTERNAL_SECRET: secret }).nats.stream_replicas).toBe(1);
    expect(loadConfig(identity, { BB_INTERNAL_SECRET: secret, BB_NATS_STREAM_REPLICAS: "3" }).nats.stream_replicas).toBe(3);
    expect(() => loadConfig(identity, { BB_INTERNAL_SECRET: secret, BB_NATS_STREAM_REPLICAS: "0" })).toThrow(/nats.stream_replicas/);
  });
});
