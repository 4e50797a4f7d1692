import { parseDurationMs, RENDER_MAX_HEIGHT, type RenderRequest } from "@burnbox/contracts";
import type { Pictured } from "../adapters/chromium";
import type { RendererDeps } from "./deps";
import { type Gate } from "./gate";
import { textPage } from "./page";
import { RenderError } from "./render-error";

/** One render: the mail's HTML (or its text set in a plain page) pictured at the asked width and scheme. */
export function renderEmail(deps: RendererDeps, gate: Gate, req: RenderRequest): Promise<Pictured & { renderMs: number }> {
  return gated(deps, gate, req);
}

async function gated(deps: RendererDeps, gate: Gate, req: RenderRequest): Promise<Pictured & { renderMs: number }> {
  const width = String(req.width);
  if (!(await gate.enter())) {
    deps.metrics.renders.inc({ width, outcome: "busy" });
    throw new RenderError("busy", "every renderer of this replica is busy");
  }
  deps.metrics.waiting.set(gate.queued);
  const end = deps.metrics.duration.startTimer({ width });
  const started = performance.now();
  try {
    const { render } = deps.config;
    const pictured = await deps.painter.render(
      { html: req.html ?? textPage(req.text ?? ""), width: req.width, scheme: req.scheme, images: req.images },
      {
        timeoutMs: parseDurationMs(render.timeout),
        maxHeight: RENDER_MAX_HEIGHT,
        maxDomNodes: render.max_dom_nodes,
        maxLayoutWidth: render.max_layout_width,
        maxImages: deps.config.images.max_per_render,
      },
    );
    deps.metrics.renders.inc({ width, outcome: "ok" });
    return { ...pictured, renderMs: performance.now() - started };
  } catch (err) {
    deps.metrics.renders.inc({ width, outcome: err instanceof RenderError ? err.code : "failed" });
    throw err;
  } finally {
    end();
    gate.leave();
    deps.metrics.waiting.set(gate.queued);
  }
}
