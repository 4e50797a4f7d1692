import { createHash } from "node:crypto";
import { RenderRequest, RpcName, subjects, type RenderReplyHead } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { RendererDeps } from "../domain/deps";
import type { Gate } from "../domain/gate";
import { chunks } from "../domain/page";
import { RenderError } from "../domain/render-error";
import { renderEmail } from "../domain/render-email.use-case";

/** Room left in each chunk message for NATS's own framing and headers. */
const CHUNK_MARGIN = 8 * 1024;

/**
 * Serves `<ns>.rpc.renderer.render` in the queue group of every renderer replica: one of them
 * takes each request. The answer goes to the request's reply subject as RenderReplyHead and then
 * the PNG in chunks under the server's max payload (the contract's RenderReplyHead says why).
 * `stop()` unsubscribes (no new request reaches this replica) and waits for the renders it holds.
 */
export function serveRender(
  nc: NatsConnection,
  namespace: string,
  deps: RendererDeps,
  gate: Gate,
  logger: Logger,
): { stop(): Promise<void> } {
  const subject = subjects(namespace).rpc(RpcName.render);
  const inFlight = new Set<Promise<void>>();
  const sub = nc.subscribe(subject, {
    queue: subject,
    callback: (err, msg) => {
      if (err) {
        logger.error({ err }, "render subscription error");
        return;
      }
      const reply = msg.reply;
      if (!reply) return;
      const work = answer(nc, reply, msg.data, deps, gate, logger);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    },
  });
  return {
    stop: async () => {
      await sub.drain().catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}

async function answer(nc: NatsConnection, reply: string, data: Uint8Array, deps: RendererDeps, gate: Gate, logger: Logger): Promise<void> {
  const send = (head: RenderReplyHead) => nc.publish(reply, JSON.stringify(head));
  let req: RenderRequest;
  try {
    const parsed = RenderRequest.safeParse(JSON.parse(Buffer.from(data).toString("utf8")));
    if (!parsed.success) return send({ ok: false, code: "invalid", error: "invalid render request" });
    req = parsed.data;
  } catch {
    return send({ ok: false, code: "invalid", error: "invalid render request" });
  }
  try {
    const pictured = await renderEmail(deps, gate, req);
    const size = deps.config.render.chunk_bytes || Math.max(1024, (nc.info?.max_payload ?? 1024 * 1024) - CHUNK_MARGIN);
    const parts = chunks(pictured.png, size);
    send({
      ok: true,
      bytes: pictured.png.length,
      chunks: parts.length,
      sha256: createHash("sha256").update(pictured.png).digest("hex"),
      width: pictured.width,
      height: pictured.height,
      truncated: pictured.truncated,
      render_ms: Math.round(pictured.renderMs),
    });
    for (const part of parts) nc.publish(reply, part);
  } catch (err) {
    if (err instanceof RenderError) return send({ ok: false, code: err.code, error: err.message });
    logger.error({ err }, "render failed");
    send({ ok: false, code: "failed", error: "the render failed" });
  }
}
