import { EventEmitter } from "node:events";
import { WebSocket } from "ws";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";
import { Hub } from "./ws-hub";

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
/** A hub (1 KiB buffer limit) with one fake socket per inbox id given, in that order. */
function hubWith(...inboxIds: string[]) {
  const hub = new Hub(logger, { maxBufferedBytes: 1024, stream: "test" });
  const sockets = inboxIds.map((inboxId) => {
    const socket = new FakeSocket();
    hub.add(inboxId, socket as unknown as WebSocket);
    return socket;
  });
  return { hub, sockets: sockets as [FakeSocket, FakeSocket] };
}

describe("Hub", () => {
  afterEach(() => jest.useRealTimers());

  it("when a peer does not answer a ping before the next one, then it is terminated; a peer that pongs stays", async () => {
    const { hub, sockets } = hubWith("i1", "i1");
    const [dead, live] = sockets;
    await hub.heartbeat();
    expect(dead.pings).toBe(1);
    expect(live.pings).toBe(1);
    live.emit("pong");
    await hub.heartbeat();
    expect(dead.terminated).toBe(1);
    expect(live.terminated).toBe(0);
    expect(live.pings).toBe(2);
    hub.close();
  });

  it("when a peer's unsent data exceeds the limit, then it is cut off with 1013 instead of being sent more", () => {
    jest.useFakeTimers();
    const { hub, sockets } = hubWith("i1", "i1");
    const [slow, fast] = sockets;
    slow.bufferedAmount = 2048;
    expect(hub.send("i1", { type: "email.received", data: { id: "e1" } })).toBe(1);
    expect(slow.sent).toHaveLength(0);
    expect(slow.closed).toEqual([{ code: 1013, reason: "too slow" }]);
    jest.advanceTimersByTime(999);
    expect(slow.terminated).toBe(0); // a grace second to close cleanly
    jest.advanceTimersByTime(1);
    expect(slow.terminated).toBe(1);
    expect(JSON.parse(fast.sent[0]!)).toEqual({ type: "email.received", data: { id: "e1" } });
    hub.close();
  });

  it("when frames go to one inbox, then sockets of other inboxes get nothing, and closed sockets are forgotten", () => {
    const { hub, sockets } = hubWith("i1", "i2");
    const [a, b] = sockets;
    hub.send("i1", { type: "x", data: {} });
    expect(a.sent).toHaveLength(1);
    expect(b.sent).toHaveLength(0);
    a.emit("close");
    expect(hub.size).toBe(1);
    expect(hub.send("i1", { type: "x", data: {} })).toBe(0);
    hub.close();
  });

  it("when a frame goes to an inbox's sockets, then its broadcast time is observed once under the hub's stream; an inbox without sockets is not", async () => {
    const count = async () =>
      (await pipeline.websocketBroadcast.get()).values.find(
        (v) => v.metricName === "burnbox_websocket_broadcast_seconds_count" && v.labels.stream === "test",
      )?.value ?? 0;
    const before = await count();
    const { hub, sockets } = hubWith("i1", "i1");
    expect(hub.send("i1", { type: "x", data: {} })).toBe(2);
    expect(sockets[0].sent).toHaveLength(1);
    expect(await count()).toBe(before + 1);
    expect(hub.send("nobody", { type: "x", data: {} })).toBe(0);
    expect(await count()).toBe(before + 1);
    hub.close();
  });

  it("when a heartbeat has more sockets than a slice, then it pings one slice, lets other work run, then the next, skipping sockets closed meanwhile", async () => {
    const hub = new Hub(logger, { maxBufferedBytes: 1024, stream: "test", heartbeatSlice: 2 });
    const sockets = ["i1", "i1", "i2", "i2", "i3", "i3"].map((inboxId) => {
      const socket = new FakeSocket();
      hub.add(inboxId, socket as unknown as WebSocket);
      return socket;
    });
    const done = hub.heartbeat();
    expect(sockets.map((s) => s.pings)).toEqual([1, 1, 0, 0, 0, 0]); // the first slice, at once
    let between: number[] = [];
    setImmediate(() => (between = sockets.map((s) => s.pings))); // queued after the first slice's turn
    sockets[5]!.readyState = WebSocket.CLOSING;
    await done;
    expect(between).toEqual([1, 1, 1, 1, 0, 0]); // this ran between the second slice and the third
    expect(sockets.map((s) => s.pings)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(sockets[5]!.terminated).toBe(0);
    hub.close();
  });

  it("when a resumed socket is released, then the replayed frames go first, then the held live ones not replayed, then the close", () => {
    const hub = new Hub(logger, { maxBufferedBytes: 1024, stream: "test" });
    const socket = new FakeSocket();
    const other = new FakeSocket();
    hub.add("i1", other as unknown as WebSocket);
    hub.add("i1", socket as unknown as WebSocket, { hold: true });
    const frame = (id: string) => ({ type: "email.received", data: { subject: id }, id });
    hub.send("i1", frame("e3")); // live while replaying, and replayed too
    hub.send("i1", frame("e5")); // live only
    hub.closeInbox("i1", 1000, "inbox expired"); // waits for the release
    expect(socket.sent).toEqual([]);
    expect(socket.closed).toEqual([]);
    hub.release(socket as unknown as WebSocket, [frame("e2"), frame("e3"), frame("e4")]);
    const ids = () => socket.sent.map((t) => (JSON.parse(t) as { id: string }).id);
    expect(ids()).toEqual(["e2", "e3", "e4", "e5"]);
    expect(socket.closed).toEqual([{ code: 1000, reason: "inbox expired" }]);
    expect(other.sent).toHaveLength(2);
    expect(other.closed).toHaveLength(1);
  });

  it("when a replayed frame's live copy comes after the release (a lagging consumer), then it is not sent twice", () => {
    const hub = new Hub(logger, { maxBufferedBytes: 1024, stream: "test" });
    const socket = new FakeSocket();
    hub.add("i1", socket as unknown as WebSocket, { hold: true });
    const frame = (id: string) => ({ type: "email.received", data: {}, id });
    hub.release(socket as unknown as WebSocket, [frame("e1"), frame("e2")]);
    hub.send("i1", frame("e1"));
    hub.send("i1", frame("e2"));
    hub.send("i1", frame("e3"));
    expect(socket.sent.map((t) => (JSON.parse(t) as { id: string }).id)).toEqual(["e1", "e2", "e3"]);
  });
});
