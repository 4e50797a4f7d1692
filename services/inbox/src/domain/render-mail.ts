import { ErrorCode } from "@burnbox/contracts";
import { AppError, errors } from "@burnbox/service-kit/runtime";
import { RenderRefused, RendererUnavailable, type MailRenderer, type RenderInput } from "./renderer";

/**
 * One render by the renderer deployable (extensions section 12), its failures in the API's words:
 * 503 when no renderer answered in time or it could not render, 413 when the mail is beyond its
 * limits. Previews and the snapshots' pictures both render through it.
 */
export async function renderMail(renderer: MailRenderer, input: RenderInput): Promise<Buffer> {
  try {
    return await renderer.renderEmail(input);
  } catch (err) {
    if (err instanceof RendererUnavailable) throw errors.unavailable("no renderer answered in time; try again later");
    if (err instanceof RenderRefused && err.code === "too_large")
      throw new AppError(ErrorCode.payload_too_large, "the mail is too large to render");
    if (err instanceof RenderRefused) throw errors.unavailable(`the mail could not be rendered (${err.code})`);
    throw err;
  }
}
