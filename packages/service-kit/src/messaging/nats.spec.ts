import { natsCredentials, natsServers } from "./nats";

describe("natsServers", () => {
  it("when nats.url names one server, then the list holds it alone", () => {
    expect(natsServers("nats://nats:4222")).toEqual(["nats://nats:4222"]);
  });

  it("when nats.url lists a cluster's members comma-separated, then each is a server of its own, spaces and empty entries dropped", () => {
    expect(natsServers("nats://n1:4222, nats://n2:4222,,nats://n3:4222 ")).toEqual(["nats://n1:4222", "nats://n2:4222", "nats://n3:4222"]);
  });
});

describe("natsCredentials", () => {
  it("when nats.user is set, then it and nats.password are sent, whatever the URL holds", () => {
    expect(natsCredentials("nats://a:b@n1:4222", { user: "inbox", password: "p" })).toEqual({ user: "inbox", pass: "p" });
  });

  it("when a member's URL holds user:password@, then they are sent (percent-decoded) and taken out of the server list", () => {
    const url = "nats://n1:4222, nats://in%2Dbox:p%40ss:w@n2:4222";
    expect(natsCredentials(url)).toEqual({ user: "in-box", pass: "p@ss:w" });
    expect(natsServers(url)).toEqual(["nats://n1:4222", "nats://n2:4222"]);
  });

  it("when neither gives credentials, then none are sent", () => {
    expect(natsCredentials("nats://n1:4222,n2:4222")).toBeNull();
  });
});
