import { guardedRequest, type OutboundPolicy } from "@burnbox/service-kit/security";

/** One remote image as the page gets it. */
export interface FetchedImage {
  contentType: string;
  body: Buffer;
}

/** Fetches one image for a page; null when it may not or could not be had (the page shows it as broken). */
export type ImageFetcher = (url: string) => Promise<FetchedImage | null>;

/**
 * A mail's remote images, fetched by the renderer itself through the kit's one outbound guard
 * (spec 6.4: the address rules, the pinned lookup, no redirects followed), never by Chromium's
 * network stack. Only a 200 with an `image/*` type is handed to the page.
 */
export function imageFetcher(policy: OutboundPolicy, opts: { timeoutMs: number; maxBytes: number }): ImageFetcher {
  return async (url) => {
    try {
      const res = await guardedRequest(url, {
        policy,
        timeoutMs: opts.timeoutMs,
        maxBytes: opts.maxBytes,
        headers: { accept: "image/*", "user-agent": "BurnBox-Renderer" },
      });
      const type = String(res.headers["content-type"] ?? "")
        .split(";")[0]!
        .trim()
        .toLowerCase();
      if (res.status !== 200 || !type.startsWith("image/")) return null;
      return { contentType: type, body: res.body };
    } catch {
      return null;
    }
  };
}
