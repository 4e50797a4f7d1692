import { createHash, randomUUID } from "node:crypto";
import { RenderReplyHead, RenderRequest, subjects, RpcName } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import { RenderRefused, RendererUnavailable, type MailRenderer, type RenderInput } from "../domain/renderer";

export type { MailRenderer, RenderInput } from "../domain/renderer";
export { RenderRefused, RendererUnavailable } from "../domain/renderer";

/** Room left in one NATS message for the request's JSON around the mail's content and the headers. */
const REQUEST_MARGIN = 16 * 1024;

/**
 * The renderer's client (extensions section 12): `renderEmail({ html | text, width, scheme, images })`
 * resolves to the PNG's bytes. The request goes to `<ns>.rpc.renderer.render`, where the renderers
 * serve one queue group (one of them takes it); the answer comes back on a reply subject of our
 * own as a head and the PNG in chunks (RenderReplyHead: a picture may be larger than one NATS
 * message), checked for count, size and SHA-256. No answer within `timeoutMs` (no renderer, or all
 * busy) is RendererUnavailable; a renderer's refusal is RenderRefused.
 */
export function rendererClient(nc: NatsConnection, namespace: string, opts: { timeoutMs: number }): MailRenderer {
  const subject = subjects(namespace).rpc(RpcName.render);
  return {
    renderEmail: (input: RenderInput) => requestRender(nc, subject, input, opts.timeoutMs),
  };
}

async function requestRender(nc: NatsConnection, subject: string, input: RenderInput, timeoutMs: number): Promise<Buffer> {
  const body = JSON.stringify(RenderRequest.parse(input));
  const maxPayload = nc.info?.max_payload ?? 1024 * 1024;
  if (Buffer.byteLength(body) > maxPayload - REQUEST_MARGIN) {
    throw new RenderRefused("too_large", "the mail is too large to render");
  }
  const inbox = `_INBOX.render.${randomUUID().replace(/-/g, "")}`;
  return new Promise<Buffer>((resolve, reject) => {
    let head: Extract<RenderReplyHead, { ok: true }> | null = null;
    const parts: Uint8Array[] = [];
    let received = 0;
    const sub = nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (err) return finish(new RendererUnavailable(`renderer unavailable: ${err.message}`));
        // the server's "no responders" status (503): no renderer subscribes to the subject at all
        if (msg.headers?.code === 503) return finish(new RendererUnavailable("no renderer is running"));
        if (!head) {
          let parsed: RenderReplyHead;
          try {
            parsed = RenderReplyHead.parse(msg.json());
          } catch {
            return finish(new RenderRefused("failed", "the renderer's answer was not understood"));
          }
          if (!parsed.ok) {
            return finish(parsed.code === "busy" ? new RendererUnavailable(parsed.error) : new RenderRefused(parsed.code, parsed.error));
          }
          head = parsed;
          return;
        }
        parts.push(msg.data);
        received += msg.data.length;
        if (parts.length < head.chunks) return;
        const png = Buffer.concat(parts);
        if (received !== head.bytes || createHash("sha256").update(png).digest("hex") !== head.sha256) {
          return finish(new RenderRefused("failed", "the picture arrived damaged"));
        }
        finish(null, png);
      },
    });
    const timer = setTimeout(() => finish(new RendererUnavailable(`no renderer answered within ${timeoutMs} ms`)), timeoutMs);
    let settled = false;
    function finish(err: Error | null, png?: Buffer) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sub.unsubscribe();
      if (err) reject(err);
      else resolve(png!);
    }
    try {
      nc.publish(subject, body, { reply: inbox });
    } catch (err) {
      finish(new RendererUnavailable(`renderer unavailable: ${(err as Error).message}`));
    }
  });
}
