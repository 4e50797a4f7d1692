import { z } from "../zod";

/** Identity asks tenancy the names of teams, each with its org (SSO mapping previews); a team not in that org is left out. */
export const TeamNamesRequest = z.object({
  teams: z.array(z.object({ org_id: z.string().uuid(), team_id: z.string().uuid() })).max(100),
});
export const TeamNamesReply = z.object({ teams: z.array(z.object({ team_id: z.string().uuid(), name: z.string() })) });

/** Tenancy: team names for identity's SSO mapping previews. */
export const teamsRpc = {
  teamNames: { name: "tenancy.team_names", request: TeamNamesRequest, reply: TeamNamesReply },
} as const;
