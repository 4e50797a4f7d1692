import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { InboxStreamQuery } from "@burnbox/contracts";
import { API_PREFIX } from "@burnbox/service-kit/http";
import { AppError, errors, type Logger } from "@burnbox/service-kit/runtime";
import { openAdminStatsStream } from "../domain/admin-stats/open-admin-stats-stream.use-case";
import type { RealtimeDeps } from "../domain/deps";
import { bindTransport } from "../adapters/ws-frames";
import { openInboxStream } from "../domain/inbox-streams/open-inbox-stream.use-case";
import { openNotificationStream } from "../domain/notifications/open-notification-stream.use-case";

// The streams are upgrades, not REST operations: the contracts document them as WS_ROUTES (ws-streams.routes.ts).
const INBOX_STREAM = new RegExp(`^${API_PREFIX}/ws/inboxes/([0-9a-fA-F-]{36})/?$`);
const NOTIFICATION_STREAM = new RegExp(`^${API_PREFIX}/ws/notifications/?$`);
const ADMIN_STATS_STREAM = new RegExp(`^${API_PREFIX}/ws/admin-stats/?$`);

/** The use case that admits an upgrade of this path, or null when no stream lives there. */
function admission(deps: RealtimeDeps, url: URL): (() => Promise<(socket: WebSocket) => void>) | null {
  const ticket = url.searchParams.get("ticket") ?? "";
  const inbox = INBOX_STREAM.exec(url.pathname);
  if (inbox) {
    // a resumed stream (an extension: README "Resuming an inbox stream")
    const lastEventId = url.searchParams.get("last_event_id") ?? "";
    // the contract's own rule for the parameter (the OpenAPI document shows the same)
    if (lastEventId && !InboxStreamQuery.shape.last_event_id.safeParse(lastEventId).success) {
      return () => Promise.reject(errors.validation("last_event_id must be a UUID"));
    }
    const inboxId = inbox[1]!.toLowerCase();
    return () => openInboxStream(deps, { inboxId, ticket, ...(lastEventId ? { lastEventId: lastEventId.toLowerCase() } : {}) });
  }
  if (NOTIFICATION_STREAM.test(url.pathname)) return () => openNotificationStream(deps, { ticket });
  if (ADMIN_STATS_STREAM.test(url.pathname)) return () => openAdminStatsStream(deps, { ticket });
  return null;
}

/** Writes an HTTP error in the envelope on a socket that was never upgraded. */
function refuse(socket: Duplex, err: AppError): void {
  if (socket.destroyed || !socket.writable) return;
  const body = JSON.stringify({ error: err.message, code: err.wireCode });
  const reason = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" }[err.status] ?? "Bad Request";
  socket.end(
    `HTTP/1.1 ${err.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * `GET <prefix>/ws/inboxes/:id?ticket=...[&last_event_id=...]` and `<prefix>/ws/notifications?ticket=...` upgrades, each
 * admitted by its use case before the handshake.
 */
export function inboxStreamUpgrades(deps: RealtimeDeps, logger: Logger) {
  // no permessage-deflate: the hub writes frames made once to each socket (adapters/ws-frames.ts)
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  const handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands upgrade sockets over without an 'error' listener: a client that resets the
    // connection while the ticket and access are checked would otherwise crash the process.
    const onSocketError = () => socket.destroy();
    socket.on("error", onSocketError);
    const url = new URL(req.url ?? "", "http://localhost");
    const admit = admission(deps, url);
    if (!admit) return refuse(socket, errors.notFound("route"));
    void (async () => {
      try {
        const attach = await admit();
        if (socket.destroyed) return; // the client left while we were checking
        wss.handleUpgrade(req, socket, head, (ws) => {
          socket.removeListener("error", onSocketError); // ws owns the socket's errors from here
          bindTransport(ws, socket);
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
