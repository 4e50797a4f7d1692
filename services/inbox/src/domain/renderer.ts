import type { RenderImages, RenderScheme, RenderWidth } from "@burnbox/contracts";

/** What one render needs: the mail's HTML part, or its text when it has none, and the view. */
export type RenderInput = ({ html: string; text?: undefined } | { text: string; html?: undefined }) & {
  width: RenderWidth;
  scheme: RenderScheme;
  images: RenderImages;
};

/**
 * The port of the renderer deployable (extensions section 12): a PNG of the mail as a reader
 * sees it. The inbox service never holds a browser; `adapters/renderer.ts` asks one over NATS.
 */
export interface MailRenderer {
  renderEmail(input: RenderInput): Promise<Buffer>;
}

/** No renderer answered within the client's time, or the one that did was full (`busy`): the caller answers 503. */
export class RendererUnavailable extends Error {
  override name = "RendererUnavailable";
}

/** A renderer answered and refused: `too_large` (the page exceeded its limits), `timeout`, `invalid` or `failed`. */
export class RenderRefused extends Error {
  override name = "RenderRefused";
  constructor(
    readonly code: "invalid" | "too_large" | "timeout" | "failed",
    message: string,
  ) {
    super(message);
  }
}
