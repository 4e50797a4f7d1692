import { natsServers } from "./nats";

describe("natsServers", () => {
  it("when nats.url names one server, then the list holds it alone", () => {
    expect(natsServers("nats://nats:4222")).toEqual(["nats://nats:4222"]);
  });

  it("when nats.url lists a cluster's members comma-separated, then each is a server of its own, spaces and empty entries dropped", () => {
    expect(natsServers("nats://n1:4222, nats://n2:4222,,nats://n3:4222 ")).toEqual(["nats://n1:4222", "nats://n2:4222", "nats://n3:4222"]);
  });
});
