import type { RenderImages } from "@burnbox/contracts";

/** What the renderer does with one request a page makes. */
export type RequestDecision = "serve-inline" | "fetch-image" | "refuse";

/**
 * The one rule for every request a mail's page makes (extensions section 12): `data:` URLs are
 * answered from the URL itself; an http(s) image is fetched by the renderer through the outbound
 * guard when the render allows images; everything else (style sheets, fonts, frames, media,
 * navigations, any other scheme, images when blocked) is refused. Chromium's own network stack
 * never reaches anything: the browser runs behind a dead proxy besides (adapters/chromium.ts).
 */
export function decideRequest(url: string, resourceType: string, images: RenderImages): RequestDecision {
  const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
  if (scheme === "data:") return "serve-inline";
  if (images === "allowed" && resourceType === "image" && (scheme === "http:" || scheme === "https:")) return "fetch-image";
  return "refuse";
}
