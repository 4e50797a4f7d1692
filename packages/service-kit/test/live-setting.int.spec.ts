import { randomUUID } from "node:crypto";
import type { NatsConnection } from "@nats-io/nats-core";
import { EventType, RpcName, subjects } from "@burnbox/contracts";
import { deleteNamespaceStreams, testInfra, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import {
  connectNats,
  ensureStreams,
  jetstream,
  jetstreamManager,
  rpcRequest,
  serveRpc,
  startLiveSetting,
  type LiveSetting,
} from "../src/messaging";
import { createLogger } from "../src/runtime";

const logger = createLogger({ service: "kit-test", level: "silent" });

/** A setting owned elsewhere (an RPC), kept current on two replicas by its change event, against the real NATS. */
describe("startLiveSetting", () => {
  const ns = uniqueNamespace("live");
  let nc: NatsConnection;
  let host = "first.example";
  let owner: { stop(): Promise<void> } | null = null;
  const replicas: Array<LiveSetting<string>> = [];
  const applied: string[] = [];

  const serveOwner = () =>
    serveRpc(
      nc,
      ns,
      RpcName.mailerConfig,
      () => Promise.resolve({ mailer: { host, port: 25, username: "", from: "a@b.c", tls: false, password_sealed: null } }),
      logger,
    );
  const start = () =>
    startLiveSetting<string>({
      nc,
      namespace: ns,
      logger,
      name: "kit-live",
      eventType: EventType.mailerConfigChanged,
      initial: "configured",
      load: async () => (await rpcRequest(nc, ns, RpcName.mailerConfig, {})).mailer?.host ?? "configured",
      onChange: (v) => applied.push(v),
      firstLoadTimeoutMs: 500,
    });
  const changed = async () => {
    const event = {
      id: randomUUID(),
      type: EventType.mailerConfigChanged,
      version: 1,
      occurred_at: new Date().toISOString(),
      org_id: null,
      team_id: null,
      data: {},
    };
    await jetstream(nc).publish(subjects(ns).event(EventType.mailerConfigChanged), JSON.stringify(event), { msgID: event.id });
  };

  beforeAll(async () => {
    nc = await connectNats(testInfra.natsUrl, "live-test", logger);
    await ensureStreams(nc, ns);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await owner?.stop();
    await deleteNamespaceStreams(nc, ns);
    await nc.close();
  });

  it("when the owner does not answer at start, then the initial value applies until a retry loads the owner's", async () => {
    const early = await start();
    replicas.push(early);
    expect(early.current()).toBe("configured");
    owner = serveOwner();
    await waitFor(() => early.current() === "first.example", { what: "the retried first load" });
  });

  it("when the change event is published, then every replica reloads the owner's value", async () => {
    const late = await start();
    replicas.push(late);
    expect(late.current()).toBe("first.example");
    host = "second.example";
    await changed();
    await waitFor(() => replicas.every((r) => r.current() === "second.example"), { what: "both replicas on the new value" });
    expect(applied).toContain("second.example");
  });

  it("when a replica stops, then its consumer is removed from the stream", async () => {
    const jsm = await jetstreamManager(nc);
    const count = async () => (await jsm.consumers.list(subjects(ns).stream).next()).length;
    const before = await count();
    const replica = replicas.pop();
    await replica?.stop();
    expect(await count()).toBe(before - 1);
  });
});
