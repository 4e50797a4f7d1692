import { z } from "../zod";

/** The widths a mail is rendered at (spec 12): desktop, the classic mail column, a phone. */
export const RENDER_WIDTHS = [1280, 600, 375] as const;
export const RenderWidth = z.union([z.literal(1280), z.literal(600), z.literal(375)]);
export type RenderWidth = z.infer<typeof RenderWidth>;
export const RenderScheme = z.enum(["light", "dark"]);
export type RenderScheme = z.infer<typeof RenderScheme>;
export const RenderImages = z.enum(["blocked", "allowed"]);
export type RenderImages = z.infer<typeof RenderImages>;
/** The tallest picture a render gives (spec 12: full height up to 10,000 px); a longer page is cut there. */
export const RENDER_MAX_HEIGHT = 10_000;

/**
 * One render: the mail's HTML part, or its text (set in a plain page) when it has no HTML. The
 * inbox service sends the content itself; the renderer never reads another service's data.
 * The request is one NATS message, so its content must fit under the server's max payload
 * (the client refuses a larger one before sending).
 */
export const RenderRequest = z
  .object({
    html: z.string().optional(),
    text: z.string().optional(),
    width: RenderWidth,
    scheme: RenderScheme,
    images: RenderImages,
  })
  .refine((r) => r.html !== undefined || r.text !== undefined, { message: "html or text is required" });
export type RenderRequest = z.infer<typeof RenderRequest>;

/**
 * The first message of a render's answer. NATS carries at most `max_payload` (1 MB by default) per
 * message and a full-height PNG can be larger, so the answer is streamed: the renderer publishes
 * this head to the request's reply subject, then (when `ok`) `chunks` messages whose bodies are
 * consecutive slices of the PNG, nothing else. One publisher on one connection keeps its order
 * (NATS), and the client checks count, size and SHA-256.
 * The picture never touches a store: it goes straight back to the one caller that asked, who
 * caches it where its bytes belong (the inbox's message storage).
 */
export const RenderReplyHead = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    bytes: z.number().int().nonnegative(),
    chunks: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** True when the page was taller than RENDER_MAX_HEIGHT and the picture was cut there. */
    truncated: z.boolean(),
    render_ms: z.number().nonnegative(),
  }),
  z.object({
    ok: z.literal(false),
    /**
     * `invalid` (a bad request), `too_large` (the page exceeded the renderer's limits), `timeout`
     * (the render took too long), `busy` (the replica's queue is full: try later), `failed`.
     */
    code: z.enum(["invalid", "too_large", "timeout", "busy", "failed"]),
    error: z.string(),
  }),
]);
export type RenderReplyHead = z.infer<typeof RenderReplyHead>;

/**
 * The renderer's one subject (`<ns>.rpc.renderer.render`), served in a queue group. Its answer is
 * not the kit's one-message `rpcRequest` reply but RenderReplyHead plus the PNG's chunks: use the
 * inbox's `adapters/renderer.ts` (`renderEmail`), never `rpcRequest`, on it.
 */
export const renderRpc = {
  render: { name: "renderer.render", request: RenderRequest, reply: RenderReplyHead },
} as const;
