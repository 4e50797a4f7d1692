import { z } from "../zod";

/**
 * The envelope every domain event travels in (`<object>.<action>`); `version` is bumped (never the
 * name changed) when a payload changes incompatibly. Each service's `<resource>.events.ts` wraps
 * its data schemas in it.
 */
export const envelope = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) =>
  z.object({
    id: z.string().uuid(),
    type: z.literal(type),
    version: z.literal(1),
    occurred_at: z.string(),
    org_id: z.string().uuid().nullable(),
    team_id: z.string().uuid().nullable(),
    data,
  });
