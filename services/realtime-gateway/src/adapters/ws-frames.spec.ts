import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { bindTransport, sendPing, sendText, textFrame } from "./ws-frames";

/** A real ws server and client on loopback: what the client's ws parser makes of the frames. */
describe("pre-made text frames", () => {
  let server: Server;
  let wss: WebSocketServer;
  let url: string;
  const accepted: Promise<WebSocket>[] = [];
  let accept: (ws: WebSocket) => void;

  beforeAll(async () => {
    wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    server = createServer();
    server.on("upgrade", (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        bindTransport(ws, socket);
        accept(ws);
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => wss.close(() => r()));
    await new Promise<void>((r) => server.close(() => r()));
  });

  const connect = async () => {
    const serverSide = new Promise<WebSocket>((r) => (accept = r));
    accepted.push(serverSide);
    const client = new WebSocket(url);
    const messages: string[] = [];
    const pings: number[] = [];
    client.on("message", (m: Buffer, isBinary: boolean) => messages.push(`${isBinary ? "binary" : "text"}:${m.toString("utf8")}`));
    client.on("ping", () => pings.push(messages.length));
    await new Promise((r) => client.once("open", r));
    return { client, ws: await serverSide, messages, pings };
  };
  const send = (ws: WebSocket, text: string) => {
    const payload = Buffer.from(text, "utf8");
    sendText(ws, textFrame(payload), payload);
  };

  it("when frames of each length encoding are sent between ws's own frames, then the client reads each text whole and in order", async () => {
    const { client, ws, messages, pings } = await connect();
    const medium = "é".repeat(200); // 400 bytes: a 16-bit length
    const large = "x".repeat(70_000); // a 64-bit length
    const viaWs = jest.spyOn(ws, "send");
    ws.send("first");
    send(ws, "short ✓");
    ws.ping();
    send(ws, medium);
    send(ws, large);
    ws.send("last");
    await new Promise<void>((resolve) => {
      const check = () => (messages.length === 5 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(messages).toEqual(["text:first", "text:short ✓", `text:${medium}`, `text:${large}`, "text:last"]);
    expect(pings).toEqual([2]); // between the second message and the third, as sent
    expect(viaWs.mock.calls.map((c) => c[0])).toEqual(["first", "last"]); // the three others went to the transport
    const closed = new Promise<number>((r) => client.once("close", (code: number) => r(code)));
    ws.close(4000, "bye");
    expect(await closed).toBe(4000);
  });

  it("when a ping is sent through the transport between text frames, then the client sees a ping in its place and its pong reaches the server's socket", async () => {
    const { client, ws, messages, pings } = await connect();
    const viaWs = jest.spyOn(ws, "ping");
    const ponged = new Promise<Buffer>((r) => ws.once("pong", (data: Buffer) => r(data)));
    send(ws, "before");
    sendPing(ws);
    send(ws, "after");
    expect((await ponged).length).toBe(0); // the client's automatic pong to an empty ping
    await new Promise<void>((resolve) => {
      const check = () => (messages.length === 2 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(messages).toEqual(["text:before", "text:after"]);
    expect(pings).toEqual([1]);
    expect(viaWs).not.toHaveBeenCalled();
    client.terminate();
  });

  it("when a frame's length is 125, 126, 65535 or 65536 bytes, then its header uses the encoding RFC 6455 gives that length", () => {
    const head = (n: number) => [...textFrame(Buffer.alloc(n)).subarray(0, 10)];
    expect(head(125).slice(0, 2)).toEqual([0x81, 125]);
    expect(head(126).slice(0, 4)).toEqual([0x81, 126, 0, 126]);
    expect(head(65_535).slice(0, 4)).toEqual([0x81, 126, 255, 255]);
    expect(head(65_536)).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(textFrame(Buffer.from("hi")).length).toBe(4);
  });
});
