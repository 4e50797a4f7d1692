import { BurnBox } from "./client.js";
import type { InboxFrame, WebSocketLike } from "./stream.js";

/** A WebSocket stand-in the test drives: the server's side of the socket. */
class FakeSocket implements WebSocketLike {
  static last: FakeSocket | null = null;
  /** Who waits for the next socket made (see `nextSocket`). */
  static waiters: Array<(s: FakeSocket) => void> = [];
  /** The next socket closes (1006) instead of opening. */
  static refuseNext = false;
  /** Every socket closes (1006) instead of opening. */
  static refuseAll = false;
  /** Resolves once the socket has opened. */
  readonly opened: Promise<void>;
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
    for (const w of FakeSocket.waiters.splice(0)) w(this);
    const refuse = FakeSocket.refuseNext || FakeSocket.refuseAll;
    FakeSocket.refuseNext = false;
    this.opened = new Promise((resolve) =>
      setTimeout(() => {
        if (refuse) return this.serverClose(1006);
        this.readyState = 1;
        this.onopen?.({});
        resolve();
      }, 1),
    );
  }
  send(frame: unknown, raw = false) {
    const text = JSON.stringify(frame);
    this.onmessage?.({ data: raw ? new TextEncoder().encode(text) : text });
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.serverClose(code ?? 1005);
  }
}

/** The next socket the stream makes (a reconnect's), once made. */
const nextSocket = () => new Promise<FakeSocket>((resolve) => FakeSocket.waiters.push(resolve));

const client = () =>
  new BurnBox({
    baseUrl: "https://bb.example.test",
    token: "jwt",
    WebSocket: FakeSocket,
    fetch: async () =>
      new Response(JSON.stringify({ ticket: "t-1", expires_in: 30 }), { status: 201, headers: { "content-type": "application/json" } }),
  });

describe("stream", () => {
  it("when frames arrive, then they are yielded in order and a server close ends the iteration", async () => {
    const s = client().stream("inbox-1");
    await s.ready;
    const socket = FakeSocket.last!;
    expect(socket.url).toBe("wss://bb.example.test/api/v1/ws/inboxes/inbox-1?ticket=t-1");
    socket.send({ type: "email.received", data: { id: "e1" } });
    socket.send({ type: "email.received", data: { id: "e2" } }, true);
    setTimeout(() => socket.serverClose(1000), 5);
    const seen: InboxFrame[] = [];
    for await (const f of s) seen.push(f);
    expect(seen.map((f) => f.data.id)).toEqual(["e1", "e2"]);
    expect(s.closeCode).toBe(1000);
  });

  it("when the loop breaks, then the socket is closed with 1000", async () => {
    const s = client().stream("inbox-2");
    await s.ready;
    const socket = FakeSocket.last!;
    setTimeout(() => socket.send({ type: "email.received", data: { id: "e3" } }), 5);
    for await (const f of s) {
      expect(f.type).toBe("email.received");
      break;
    }
    expect(socket.closedWith).toBe(1000);
  });

  it("when the socket closes before it opens, then ready and next() reject", async () => {
    FakeSocket.refuseNext = true;
    const s = client().stream("inbox-3");
    await expect(s.ready).rejects.toThrow(/closed before it opened/);
    await expect(s.next()).rejects.toThrow(/closed before it opened/);
  });

  it("when the socket drops, then it reopens with last_event_id and the iteration goes on with the missed frames", async () => {
    const s = client().stream("inbox-4", { reconnect: { delayMs: () => 1 } });
    await s.ready;
    const first = FakeSocket.last!;
    first.send({ type: "email.received", data: { id: "e1" }, id: "ev-1" });
    first.send({ type: "email.received", data: { id: "e2" }, id: "ev-2" });
    const reopened = nextSocket();
    first.serverClose(1006);
    const second = await reopened;
    expect(second.url).toBe("wss://bb.example.test/api/v1/ws/inboxes/inbox-4?ticket=t-1&last_event_id=ev-2");
    await second.opened;
    // what the server replays, then a normal close (the inbox ended): no reconnect after that
    second.send({ type: "email.received", data: { id: "e3" }, id: "ev-3" });
    second.serverClose(1000);
    const seen: string[] = [];
    for await (const f of s) seen.push(f.data.id as string);
    expect(seen).toEqual(["e1", "e2", "e3"]);
    expect(s.lastEventId).toBe("ev-3");
    expect(s.reconnects).toBe(1);
    expect(s.closeCode).toBe(1000);
  });

  it("when a resync_required frame comes, then it is yielded and the id to resume from stays the last frame's", async () => {
    const s = client().stream("inbox-5", { lastEventId: "ev-0" });
    await s.ready;
    const socket = FakeSocket.last!;
    expect(socket.url).toBe("wss://bb.example.test/api/v1/ws/inboxes/inbox-5?ticket=t-1&last_event_id=ev-0");
    socket.send({ type: "resync_required", data: { inbox_id: "inbox-5", last_event_id: "ev-0", reason: "not_in_window" } });
    socket.serverClose(1000);
    const seen: InboxFrame[] = [];
    for await (const f of s) seen.push(f);
    expect(seen.map((f) => f.type)).toEqual(["resync_required"]);
    expect(s.lastEventId).toBe("ev-0");
  });

  it("when reconnect is false, then a drop ends the iteration", async () => {
    const s = client().stream("inbox-6", { reconnect: false });
    await s.ready;
    FakeSocket.last!.serverClose(1006);
    expect(await s.next()).toEqual({ value: undefined, done: true });
    expect(s.closeCode).toBe(1006);
  });

  it("when every reopening fails, then next() rejects after maxAttempts", async () => {
    const s = client().stream("inbox-7", { reconnect: { maxAttempts: 2, delayMs: () => 1 } });
    await s.ready;
    FakeSocket.refuseAll = true;
    try {
      FakeSocket.last!.serverClose(1006);
      await expect(s.next()).rejects.toThrow(/closed before it opened/);
      expect(s.reconnects).toBe(0);
    } finally {
      FakeSocket.refuseAll = false;
    }
  });
});
