import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { API_PREFIX, AppError, errors, type Logger } from "@burnbox/service-kit";
import type { RealtimeDeps } from "../domain/deps";
import { openInboxStream } from "../domain/inbox-streams/open-inbox-stream.use-case";

// The stream is an upgrade, not a REST operation: the contracts have no route entry for it.
const INBOX_STREAM = new RegExp(`^${API_PREFIX}/ws/inboxes/([0-9a-fA-F-]{36})/?$`);

/** Writes an HTTP error in the envelope on a socket that was never upgraded. */
function refuse(socket: Duplex, err: AppError): void {
  if (socket.destroyed || !socket.writable) return;
  const body = JSON.stringify({ error: err.message, code: err.wireCode });
  const reason = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" }[err.status] ?? "Bad Request";
  socket.end(
    `HTTP/1.1 ${err.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `GET <prefix>/ws/inboxes/:id?ticket=...` upgrades: admitted by `openInboxStream` before the handshake. */
export function inboxStreamUpgrades(deps: RealtimeDeps, logger: Logger) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands upgrade sockets over without an 'error' listener: a client that resets the
    // connection while the ticket and access are checked would otherwise crash the process.
    const onSocketError = () => socket.destroy();
    socket.on("error", onSocketError);
    const url = new URL(req.url ?? "", "http://localhost");
    const match = INBOX_STREAM.exec(url.pathname);
    if (!match) return refuse(socket, errors.notFound("route"));
    const input = { inboxId: match[1]!.toLowerCase(), ticket: url.searchParams.get("ticket") ?? "" };
    void (async () => {
      try {
        const attach = await openInboxStream(deps, input);
        if (socket.destroyed) return; // the client left while we were checking
        wss.handleUpgrade(req, socket, head, (ws) => {
          socket.removeListener("error", onSocketError); // ws owns the socket's errors from here
          attach(ws);
          ws.on("message", () => undefined); // clients only listen; pings are answered by ws itself
        });
      } catch (err) {
        if (err instanceof AppError) return refuse(socket, err);
        logger.error({ err }, "websocket upgrade failed");
        refuse(socket, errors.unavailable());
      }
    })();
  };
  return { handler, close: () => new Promise<void>((r) => wss.close(() => r())) };
}
