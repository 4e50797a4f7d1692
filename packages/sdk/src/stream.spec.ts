import { BurnBox } from "./client.js";
import type { InboxFrame, WebSocketLike } from "./stream.js";

/** A WebSocket stand-in the test drives: the server's side of the socket. */
class FakeSocket implements WebSocketLike {
  static last: FakeSocket | null = null;
  /** The next socket closes (1006) instead of opening. */
  static refuseNext = false;
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
    const refuse = FakeSocket.refuseNext;
    FakeSocket.refuseNext = false;
    setTimeout(() => {
      if (refuse) return this.serverClose(1006);
      this.readyState = 1;
      this.onopen?.({});
    }, 1);
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
});
