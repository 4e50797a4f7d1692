import { z } from "../zod";

export const Uuid = z.string().uuid();
export const Timestamp = z.string().openapi({ format: "date-time" });
export const MessageBody = z.object({ message: z.string() }).openapi("Message");

export const OrgParams = z.object({ orgId: Uuid });
export const TeamParams = z.object({ orgId: Uuid, teamId: Uuid });
export const IdParams = z.object({ id: Uuid });

/** Go-style durations (`90s`, `15m`, `2160h`, `1h30m`) plus `d` for days, as in the contract notes. */
export const DURATION_PATTERN = /^(\d+(d|h|m|s|ms))+$/;
export const Duration = z.string().regex(DURATION_PATTERN, "must be a duration such as 90s, 15m, 2160h or 90d");

export function parseDurationMs(input: string): number {
  if (!DURATION_PATTERN.test(input)) throw new Error(`invalid duration: ${input}`);
  const unit: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  for (const m of input.matchAll(/(\d+)(ms|d|h|m|s)/g)) total += Number(m[1]) * (unit[m[2] as string] ?? 0);
  return total;
}

/** A PATCH-style body: every field is optional, but an empty body is a 400 rather than a no-op. */
export function atLeastOneField<T extends z.ZodObject>(schema: T) {
  return schema.refine((b: Record<string, unknown>) => Object.values(b).some((v) => v !== undefined), {
    message: "at least one field is required",
  });
}

export const errorResponses = {
  400: { description: "Validation error" },
  401: { description: "Missing or invalid credentials" },
  403: { description: "Insufficient permissions" },
  404: { description: "Not found" },
} as const;
