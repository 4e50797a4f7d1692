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

  it("when the minute slides past one message at a time, then exactly one more is allowed as each old one leaves it", () => {
    const l = limits();
    const start = now;
    for (const at of [0, 20_000, 40_000]) {
      now = start + at;
      expect(l.trySend("192.0.2.1")).toBe(true);
    }
    now = start + 59_999;
    expect(l.trySend("192.0.2.1")).toBe(false); // refused, and not counted
    now = start + 60_001; // the first has left the minute
    expect(l.trySend("192.0.2.1")).toBe(true);
    expect(l.trySend("192.0.2.1")).toBe(false);
    now = start + 80_001; // the second has too
    expect(l.trySend("192.0.2.1")).toBe(true);
    expect(l.trySend("192.0.2.1")).toBe(false);
  });

  it("when an IP may send many a minute, then its count stays exact as the expired front is dropped and compacted", () => {
    const l = new IntakeLimits({ connectionsPerIp: 1, messagesPerIpPerMinute: 5000 }, () => now);
    const sends = (n: number) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) {
        now += 12; // 5,000 a minute
        if (l.trySend("192.0.2.1")) allowed++;
      }
      return allowed;
    };
    expect(sends(5000)).toBe(5000);
    expect(l.trySend("192.0.2.1")).toBe(false);
    expect(sends(20_000)).toBe(20_000); // one leaves the minute as each arrives
    expect(l.trySend("192.0.2.1")).toBe(false);
    now += 60_000;
    l.prune();
    expect(l.trackedIps).toBe(0);
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
