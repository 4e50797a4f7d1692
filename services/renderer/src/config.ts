import { z } from "zod";
import { Duration } from "@burnbox/contracts";
import { baseConfigShape, loadConfig } from "@burnbox/service-kit/runtime";

export const RendererConfig = z.object({
  ...baseConfigShape("renderer", 8107),
  chromium: z
    .object({
      /** The browser binary: Debian's chromium here and in the image. Never a downloaded one. */
      executable_path: z.string().default("/usr/bin/chromium"),
      /**
       * The fontconfig file the browser reads: it lists only the fonts shipped with the renderer
       * (DejaVu), so a render is the same on every machine. Empty: `fonts/fonts.conf` beside the service.
       */
      fontconfig_file: z.string().default(""),
      /** The browser is restarted after this many renders (a bound on what a long-lived browser accumulates). */
      restart_after_renders: z.number().int().positive().default(200),
    })
    .prefault({}),
  render: z
    .object({
      /** Renders this replica runs at once; more wait their turn (each is one page of its own). */
      concurrency: z.number().int().positive().default(2),
      /** Renders that may wait for a turn; beyond it a request is answered `busy` at once. */
      max_queue: z.number().int().nonnegative().default(16),
      /** One render, from the request to the picture (loading, images and screenshot included). */
      timeout: Duration.default("10s"),
      /** A page with more DOM nodes than this is refused (`too_large`) before it is pictured. */
      max_dom_nodes: z.number().int().positive().default(50_000),
      /** A page whose layout is wider than this (px) is refused: a bound on the picture's memory. */
      max_layout_width: z.number().int().positive().default(8_000),
      /** The PNG goes back in chunks of at most this many bytes; 0: the NATS server's max payload less a margin. */
      chunk_bytes: z.number().int().nonnegative().default(0),
    })
    .prefault({}),
  images: z
    .object({
      /** One remote image's fetch (when a render allows images), through the outbound rules of 6.4. */
      timeout: Duration.default("3s"),
      /** The largest remote image kept; a larger one is dropped (the render goes on without it). */
      max_bytes: z
        .number()
        .int()
        .positive()
        .default(5 * 1024 * 1024),
      /** Remote images one render fetches at most; the rest are refused. */
      max_per_render: z.number().int().nonnegative().default(50),
      /** Hosts or CIDR ranges exempt from the address rules: local test servers only. Empty by default. */
      unsafe_allowed_targets: z.array(z.string()).default([]),
    })
    .prefault({}),
  dns: z
    .object({
      /** Resolvers (`host:port`) for the images' address check; empty = the system's. */
      servers: z.array(z.string()).default([]),
      timeout_ms: z.number().int().positive().default(3000),
    })
    .prefault({}),
});
export type RendererConfig = z.infer<typeof RendererConfig>;

export function loadRendererConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): RendererConfig {
  return loadConfig(RendererConfig, env, overrides);
}
