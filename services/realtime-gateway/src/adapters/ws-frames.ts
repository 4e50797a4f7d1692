import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";

/**
 * Text frames laid out once for many sockets. `ws` frames every `send` for its socket (a header
 * of its own, then a corked two-part write), which was most of a broadcast's time with thousands
 * of sockets on one inbox. Here a frame is made once (RFC 6455 5.2: FIN, text opcode, unmasked as
 * a server's must be, the payload length in 7, 16 or 64 bits) and written whole to each socket's
 * transport: the TCP socket its upgrade came on, which `ws` writes to as well.
 *
 * The order with `ws`'s own frames (pings, close) holds because `ws` writes each of its frames to
 * the socket at once unless it is compressing or reading a Blob: this server negotiates no
 * extension (no permessage-deflate; `bindTransport` refuses a socket that has one) and sends no
 * Blobs. A socket without a bound transport gets `ws.send`.
 */
const transports = new WeakMap<WebSocket, Duplex>();

/** Remembers the socket a WebSocket's upgrade came on; ignored for a WebSocket with an extension. */
export function bindTransport(ws: WebSocket, socket: Duplex): void {
  if (ws.extensions === "") transports.set(ws, socket);
}

/** One unfragmented, unmasked text frame carrying `payload` (UTF-8). */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  payload.copy(frame, head);
  return frame;
}

/** An empty ping (FIN + opcode 9, no payload), the heartbeat's frame for every socket. */
const PING = Buffer.from([0x89, 0x00]);

/** Pings `ws`: the pre-made empty ping to its transport, else `ws.ping()`. Its pong arrives as `ws`'s "pong" event either way. */
export function sendPing(ws: WebSocket): void {
  const transport = transports.get(ws);
  if (transport) transport.write(PING);
  else ws.ping();
}

/** Sends `frame` (made by `textFrame` from `payload`) on `ws`: the whole frame to its transport, else through `ws`. */
export function sendText(ws: WebSocket, frame: Buffer, payload: Buffer): void {
  const transport = transports.get(ws);
  if (transport) transport.write(frame);
  else ws.send(payload, { binary: false });
}
