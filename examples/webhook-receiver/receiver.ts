// A webhook receiver that trusts nothing it cannot verify: every POST is checked with the SDK's
// verifyWebhook (X-Service-Signature-256: the HMAC of the send time and the exact body bytes, the
// send time within 5 minutes) before it is handled; anything else answers 401. A delivery id
// already handled (every retry and redelivery repeats it) is dropped by createReplayGuard.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReplayGuard, verifyWebhook, WebhookVerificationError, type WebhookDelivery } from "@burnbox/sdk";

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

/** `secret`: the webhook's secret, or a function giving it (when the webhook is created after the receiver listens). */
export async function startWebhookReceiver(
  secret: string | (() => string),
  onDelivery: (delivery: WebhookDelivery) => void | Promise<void>,
  port = 0,
): Promise<WebhookReceiver> {
  const guard = createReplayGuard({ ttlMs: 24 * 60 * 60 * 1000, max: 10_000 });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        // the raw bytes, never a re-serialized JSON.parse
        const delivery = await verifyWebhook(typeof secret === "string" ? secret : secret(), req.headers, Buffer.concat(chunks));
        if (!guard.seen(delivery.id)) {
          try {
            await onDelivery(delivery);
          } catch (err) {
            guard.forget(delivery.id); // not handled: its retry must get through
            throw err;
          }
        }
        res.writeHead(204).end();
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: err.reason }));
      }
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/burnbox`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
