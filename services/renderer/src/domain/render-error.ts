import type { RenderReplyHead } from "@burnbox/contracts";

export type RenderErrorCode = Extract<RenderReplyHead, { ok: false }>["code"];

/** Why a render gave no picture; its message is safe to send back (it never carries the mail). */
export class RenderError extends Error {
  override name = "RenderError";
  constructor(
    readonly code: RenderErrorCode,
    message: string,
  ) {
    super(message);
  }
}
