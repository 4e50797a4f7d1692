import { z } from "../zod";

export const PlatformSettings = z.object({ max_sessions_per_user: z.number().int().min(1).max(1000) }).openapi("PlatformSettings");
export const UpdatePlatformBody = PlatformSettings.partial().openapi("UpdatePlatformRequest");
