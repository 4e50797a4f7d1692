import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { Router } from "express";
import { WebSocketServer } from "ws";
import { ErrorCode } from "@burnbox/contracts";
import { AppError, actorOf, errors, type Logger, type NatsConnection, type Redis } from "@burnbox/service-kit";
import { checkInboxAccess, isAppError } from "../domain/access";
import type { Hub } from "../domain/hub";
import { issueTicket, redeemTicket } from "../domain/tickets";

export function ticketRouter(redis: Redis, prefix: string): Router {
  const r = Router();
  r.post("/ws/ticket", async (req, res) => {
    const actor = actorOf(req);
    if (actor.api_key) throw errors.forbidden("insufficient scope");
    res.status(201).json(await issueTicket(redis, prefix, actor));
  });
  return r;
}

const INBOX_PATH = /^\/api\/v1\/ws\/inboxes\/([0-9a-fA-F-]{36})\/?$/;

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
 * `/api/v1/ws/inboxes/:id?ticket=...`: the ticket is redeemed (once) and the inbox access checked
 * before the upgrade, so a refused caller gets a plain HTTP 401/403/404 and never a socket.
 */
export function inboxUpgradeHandler(deps: {
  redis: Redis;
  prefix: string;
  nc: NatsConnection;
  namespace: string;
  hub: Hub;
  logger: Logger;
}) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands upgrade sockets over without an 'error' listener: a client that resets the
    // connection while the ticket and access are checked would otherwise crash the process.
    const onSocketError = () => socket.destroy();
    socket.on("error", onSocketError);
    const url = new URL(req.url ?? "/", "http://localhost");
    const match = INBOX_PATH.exec(url.pathname);
    if (!match) return refuse(socket, errors.notFound("route"));
    const inboxId = match[1]!.toLowerCase();
    const ticket = url.searchParams.get("ticket") ?? "";
    void (async () => {
      try {
        const actor = await redeemTicket(deps.redis, deps.prefix, ticket);
        if (!actor) throw new AppError(ErrorCode.unauthenticated, "invalid or expired ticket");
        await checkInboxAccess(deps.nc, deps.namespace, actor, inboxId);
        if (socket.destroyed) return; // the client left while we were checking
        wss.handleUpgrade(req, socket, head, (ws) => {
          socket.removeListener("error", onSocketError); // ws owns the socket's errors from here
          deps.hub.add(inboxId, ws);
          ws.on("message", () => undefined); // clients only listen; pings are answered by ws itself
        });
      } catch (err) {
        if (isAppError(err)) return refuse(socket, err);
        deps.logger.error({ err }, "websocket upgrade failed");
        refuse(socket, errors.unavailable());
      }
    })();
  };
  return { handler, close: () => new Promise<void>((r) => wss.close(() => r())) };
}
