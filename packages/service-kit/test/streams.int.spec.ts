import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import { subjects } from "@burnbox/contracts";
import { deleteNamespaceStreams, testInfra, uniqueNamespace } from "@burnbox/test-kit";
import { connectNats, ensureStreams } from "../src/messaging";

describe("ensureStreams and nats.stream_replicas (single NATS server)", () => {
  let nc: NatsConnection;
  const namespaces: string[] = [];
  beforeAll(async () => {
    nc = await connectNats(testInfra.natsUrl, "streams-test");
  });
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespaceStreams(nc, ns);
    await nc.close();
  });

  it("when streams are made with the default, then both have one replica", async () => {
    const ns = uniqueNamespace("rep");
    namespaces.push(ns);
    await ensureStreams(nc, ns);
    const jsm = await jetstreamManager(nc);
    const s = subjects(ns);
    expect((await jsm.streams.info(s.stream)).config.num_replicas).toBe(1);
    expect((await jsm.streams.info(s.dlqStream)).config.num_replicas).toBe(1);
  });

  it("when three replicas are asked of a single server, then start fails instead of running unreplicated", async () => {
    const ns = uniqueNamespace("rep");
    namespaces.push(ns);
    await expect(ensureStreams(nc, ns, 3)).rejects.toThrow();
  });
});
