import { z } from "../zod";

/** `GET /emails/:id/preview`'s query (extensions section 12); any other value of these is a 400. */
export const PreviewQuery = z.object({
  width: z.enum(["1280", "600", "375"]).default("600"),
  scheme: z.enum(["light", "dark"]).default("light"),
  images: z.enum(["blocked", "allowed"]).default("blocked"),
});
export type PreviewQuery = z.infer<typeof PreviewQuery>;

/** The response header that says whether a preview came from the cache (`hit`) or was rendered now (`miss`). */
export const PREVIEW_CACHE_HEADER = "x-burnbox-preview-cache";

/** The longest the inbox waits for a renderer's picture before it answers 503 (the gateway's timeout for the route adds to it). */
export const PREVIEW_MAX_WAIT_MS = 20_000;
