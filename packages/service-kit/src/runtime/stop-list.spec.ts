import { StopList } from "./stop-list";

describe("StopList", () => {
  const recorder = () => {
    const stopped: string[] = [];
    const thing = (name: string) => ({ stop: async () => void stopped.push(name) });
    return { stopped, thing };
  };

  it("when things were added in start order, then stop() stops them in the reverse order", async () => {
    const { stopped, thing } = recorder();
    const list = new StopList();
    list.add(thing("relay"));
    list.add([thing("consumer-a"), thing("consumer-b")]);
    list.addStep(() => void stopped.push("hook"));
    list.add(thing("server"));
    await list.stop();
    expect(stopped).toEqual(["server", "hook", "consumer-a", "consumer-b", "relay"]);
  });

  it("when a list is added in one call, then its members stop together, before what was added earlier", async () => {
    const events: string[] = [];
    let release!: () => void;
    const slow = { stop: () => new Promise<void>((resolve) => (release = resolve)).then(() => void events.push("slow")) };
    const fast = { stop: async () => void events.push("fast") };
    const list = new StopList();
    list.add({ stop: async () => void events.push("first up") });
    list.add([slow, fast]);
    const done = list.stop();
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(["fast"]);
    release();
    await done;
    expect(events).toEqual(["fast", "slow", "first up"]);
  });

  it("when one stop fails, then the others still stop and the failure is thrown after them", async () => {
    const { stopped, thing } = recorder();
    const list = new StopList();
    list.add(thing("client"));
    list.add({ stop: () => Promise.reject(new Error("relay would not stop")) });
    list.add(thing("server"));
    await expect(list.stop()).rejects.toMatchObject({ message: "relay would not stop" });
    expect(stopped).toEqual(["server", "client"]);
  });

  it("when stop() is called twice, then each thing stops once and nothing may be added after", async () => {
    const { stopped, thing } = recorder();
    const list = new StopList();
    list.add(thing("worker"));
    await Promise.all([list.stop(), list.stop()]);
    expect(stopped).toEqual(["worker"]);
    expect(() => list.add(thing("late"))).toThrow("added after stop()");
  });
});
