import { ReconnectingSocket, type WebSocketLike } from "./reconnecting-socket.js";

/** A socket stand-in the test drives by hand: open(), drop(code). */
class HandSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  closedWith: number | null = null;
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.drop(code ?? 1005);
  }
}

/** Lets a 0 ms retry timer scheduled before it, the factory's promise and the handlers it sets run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("ReconnectingSocket", () => {
  it("when the first attempt fails and the policy retries it, then each pause is asked with the attempt and the close code, and an open resets the count", async () => {
    const sockets: HandSocket[] = [];
    const asked: Array<[number, number | undefined]> = [];
    const events: string[] = [];
    let ticketFails = true;
    const rs = new ReconnectingSocket(
      async () => {
        if (ticketFails) throw new Error("no ticket");
        const s = new HandSocket();
        sockets.push(s);
        return s;
      },
      { delayMs: (attempt, code) => (asked.push([attempt, code]), 0) },
      {
        onOpen: (reopened) => events.push(reopened ? "reopened" : "opened"),
        onMessage: () => undefined,
        onRetry: (n) => events.push(`retry ${n}`),
      },
    );
    await settle();
    ticketFails = false;
    await settle();
    await settle();
    sockets[0]!.drop(4429); // before it opened
    await settle();
    await settle();
    sockets[1]!.open();
    sockets[1]!.drop(1006);
    await settle();
    await settle();
    sockets[2]!.open();
    expect(asked).toEqual([
      [1, undefined],
      [2, 4429],
      [1, 1006],
    ]);
    expect(events).toEqual(["retry 1", "retry 2", "opened", "retry 1", "reopened"]);
    rs.close(1000);
    expect(sockets[2]!.closedWith).toBe(1000);
  });

  it("when close() is called, then no event follows and no socket is reopened", async () => {
    const sockets: HandSocket[] = [];
    const events: string[] = [];
    const rs = new ReconnectingSocket(
      async () => {
        const s = new HandSocket();
        sockets.push(s);
        return s;
      },
      { delayMs: () => 0 },
      { onMessage: () => undefined, onRetry: () => events.push("retry"), onEnd: () => events.push("end") },
    );
    await settle();
    sockets[0]!.open();
    rs.close(1000);
    await settle();
    await settle();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(events).toEqual([]);
  });

  it("when the policy gives up or a close is final, then it ends with the error or the code", async () => {
    const ends: Array<{ code: number | null; error?: Error }> = [];
    new ReconnectingSocket(
      () => Promise.reject(new Error("no ticket")),
      { delayMs: (n) => (n > 2 ? null : 0) },
      { onMessage: () => undefined, onEnd: (e) => ends.push(e) },
    );
    const s = new HandSocket();
    new ReconnectingSocket(
      () => Promise.resolve(s),
      { delayMs: () => 0, isFinal: (code) => code === 1000 },
      { onMessage: () => undefined, onEnd: (e) => ends.push(e) },
    );
    await settle();
    s.open();
    s.drop(1000);
    for (let i = 0; i < 4; i++) await settle();
    expect(ends).toEqual([{ code: 1000 }, { code: null, error: new Error("no ticket") }]);
  });
});
