import { EventEmitter } from "node:events";
import { WebSocket } from "ws";
import type { Logger } from "@burnbox/service-kit";
import { Hub } from "./hub";

/** Just enough of a ws socket for the hub: events, state, buffer size and the calls it makes. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  closed: Array<{ code: number; reason: string }> = [];
  terminated = 0;
  pings = 0;
  send(text: string) {
    this.sent.push(text);
  }
  close(code: number, reason: string) {
    this.closed.push({ code, reason });
  }
  terminate() {
    this.terminated++;
  }
  ping() {
    this.pings++;
  }
}

const logger = { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() } as unknown as Logger;
const asWs = (s: FakeSocket) => s as unknown as WebSocket;

describe("Hub", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("when a peer does not answer a ping before the next one, then it is terminated; a peer that pongs stays", () => {
    const hub = new Hub(logger, { pingIntervalMs: 1000, maxBufferedBytes: 1024 });
    const dead = new FakeSocket();
    const live = new FakeSocket();
    hub.add("i1", asWs(dead));
    hub.add("i1", asWs(live));
    jest.advanceTimersByTime(1000);
    expect(dead.pings).toBe(1);
    expect(live.pings).toBe(1);
    live.emit("pong");
    jest.advanceTimersByTime(1000);
    expect(dead.terminated).toBe(1);
    expect(live.terminated).toBe(0);
    expect(live.pings).toBe(2);
    hub.close();
  });

  it("when a peer's unsent data exceeds the limit, then it is cut off with 1013 instead of being sent more", () => {
    const hub = new Hub(logger, { pingIntervalMs: 60_000, maxBufferedBytes: 1024 });
    const slow = new FakeSocket();
    const fast = new FakeSocket();
    hub.add("i1", asWs(slow));
    hub.add("i1", asWs(fast));
    slow.bufferedAmount = 2048;
    expect(hub.send("i1", { type: "email.received", data: { id: "e1" } })).toBe(1);
    expect(slow.sent).toHaveLength(0);
    expect(slow.closed).toEqual([{ code: 1013, reason: "too slow" }]);
    jest.advanceTimersByTime(1000);
    expect(slow.terminated).toBe(1);
    expect(JSON.parse(fast.sent[0]!)).toEqual({ type: "email.received", data: { id: "e1" } });
    hub.close();
  });

  it("when frames go to one inbox, then sockets of other inboxes get nothing, and closed sockets are forgotten", () => {
    const hub = new Hub(logger, { pingIntervalMs: 60_000, maxBufferedBytes: 1024 });
    const a = new FakeSocket();
    const b = new FakeSocket();
    hub.add("i1", asWs(a));
    hub.add("i2", asWs(b));
    hub.send("i1", { type: "x", data: {} });
    expect(a.sent).toHaveLength(1);
    expect(b.sent).toHaveLength(0);
    a.emit("close");
    expect(hub.size).toBe(1);
    expect(hub.send("i1", { type: "x", data: {} })).toBe(0);
    hub.close();
  });
});
