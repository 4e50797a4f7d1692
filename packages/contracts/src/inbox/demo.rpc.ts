import { z } from "../zod";

/** Identity asks the inbox service its configured `demo.enabled` (what a platform without a saved `demo_enabled` runs with). */
export const DemoConfigRequest = z.object({});
export const DemoConfigReply = z.object({ enabled: z.boolean() });

/** The inbox service: its configured demo switch, for identity's platform settings. */
export const demoRpc = {
  demoConfig: { name: "inbox.demo_config", request: DemoConfigRequest, reply: DemoConfigReply },
} as const;
