import { MoveTeamReply, MoveTeamRequest } from "../shared/team-move.schemas";

/** The webhook dispatcher: a transferred team's webhooks re-filed before tenancy answers. */
export const webhooksRpc = {
  moveTeamWebhooks: { name: "webhooks.move_team", request: MoveTeamRequest, reply: MoveTeamReply },
} as const;
