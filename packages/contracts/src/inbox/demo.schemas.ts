import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** Whether the public demo (`/try`) is on. */
export const DemoStatus = z.object({ enabled: z.boolean() }).openapi("DemoStatus");
export type DemoStatus = z.infer<typeof DemoStatus>;

/** A demo inbox: owned by the platform, on `demo.domain`, readable only through `/try`. */
export const DemoInbox = z
  .object({
    inbox_id: Uuid,
    /** The full address to send mail to (`<alias>@<demo.domain>`). */
    address: z.string(),
    expires_at: Timestamp,
  })
  .openapi("DemoInbox");
export type DemoInbox = z.infer<typeof DemoInbox>;
