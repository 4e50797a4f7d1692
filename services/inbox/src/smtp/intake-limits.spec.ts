import { IntakeLimits } from "./intake-limits";

describe("IntakeLimits", () => {
  let now = 0;
  const limits = () => new IntakeLimits({ connectionsPerIp: 2, messagesPerIpPerMinute: 3 }, () => now);
  beforeEach(() => {
    now = 1_000_000;
  });

  it("when an IP holds its maximum of connections, then one more is refused until one closes", () => {
    const l = limits();
    expect(l.tryOpen("192.0.2.1")).toBe(true);
    expect(l.tryOpen("192.0.2.1")).toBe(true);
    expect(l.tryOpen("192.0.2.1")).toBe(false);
    expect(l.tryOpen("192.0.2.2")).toBe(true);
    l.closed("192.0.2.1");
    expect(l.tryOpen("192.0.2.1")).toBe(true);
  });

  it("when an IP sent its maximum of messages within a minute, then more are refused until the minute slides past", () => {
    const l = limits();
    for (let i = 0; i < 3; i++) expect(l.trySend("192.0.2.1")).toBe(true);
    expect(l.trySend("192.0.2.1")).toBe(false);
    expect(l.trySend("192.0.2.9")).toBe(true);
    now += 60_001;
    expect(l.trySend("192.0.2.1")).toBe(true);
  });

  it("when IPs have nothing open or recent, then they are forgotten", () => {
    const l = limits();
    expect(l.tryOpen("192.0.2.1")).toBe(true);
    expect(l.trySend("192.0.2.3")).toBe(true);
    l.closed("192.0.2.1");
    now += 60_001;
    l.prune();
    expect(l.trackedIps).toBe(0);
  });
});
