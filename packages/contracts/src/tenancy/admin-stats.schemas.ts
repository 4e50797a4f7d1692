import { z } from "../zod";

/** Spec 2.7: the platform's figures, for `GET /admin/stats` and the `/ws/admin-stats` frames. */
export const AdminStats = z
  .object({
    total_emails: z.number().int(),
    active_inboxes: z.number().int(),
    total_domains: z.number().int(),
    total_users: z.number().int(),
    total_teams: z.number().int(),
    storage_used_bytes: z.number().int(),
  })
  .openapi("AdminStats");
export type AdminStats = z.infer<typeof AdminStats>;
