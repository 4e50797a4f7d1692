import { Button } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useOrgPermissions } from "../../api/permissions";
import { useWorkspace } from "../../api/workspace";

/**
 * What to do when none of the user's teams has a domain it may create inboxes on, said to the
 * person reading it: the action itself for those who may take it (create a team, assign a domain
 * to the chosen team), who to ask for everyone else.
 */
export function useMissingDomainHelp(): { text: string; action: ReactNode } {
  const { org, team } = useWorkspace();
  const perms = useOrgPermissions(org?.id);
  if (org && !team && perms.can("org.teams.create"))
    return {
      text: `An inbox belongs to a team, and you have no team in ${org.name} yet. Create one, then assign it a domain.`,
      action: (
        <Button component={Link} to="/teams?new=1">
          Create a team
        </Button>
      ),
    };
  if (org && team && perms.can("org.domains.manage"))
    return {
      text: `An inbox needs a domain assigned to the team. Assign one of ${org.name}'s verified domains to ${team.name} (add and verify a domain first if there is none).`,
      action: (
        <Button component={Link} to={`/teams/${team.id}?assign=1`}>
          Assign a domain to {team.name}
        </Button>
      ),
    };
  return {
    text: "An inbox needs a domain assigned to your team. Ask an owner or admin of your organization to assign one, then come back here.",
    action: null,
  };
}
