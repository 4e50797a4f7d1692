import type { Counter, Gauge, Histogram } from "prom-client";
import type { RendererConfig } from "../config";
import type { PageJob, PageLimits, Pictured } from "../adapters/chromium";

/** The browser as the use case sees it (adapters/chromium.ts's BrowserHost). */
export interface PagePainter {
  render(job: PageJob, limits: PageLimits): Promise<Pictured>;
}

export interface RenderMetrics {
  renders: Counter<"width" | "outcome">;
  duration: Histogram<"width">;
  waiting: Gauge;
}

/** What the renderer's use case gets. */
export interface RendererDeps {
  config: RendererConfig;
  painter: PagePainter;
  metrics: RenderMetrics;
}
