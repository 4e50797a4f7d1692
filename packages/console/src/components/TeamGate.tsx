import { IconUsersGroup } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useWorkspace } from "../api/workspace";
import { EmptyState } from "./EmptyState";
import { GateFallback } from "./GateFallback";

/** The org and team a team page works on: the header's choice. */
export interface TeamScope {
  orgId: string;
  teamId: string;
  teamName: string;
}

/**
 * Renders `children` with the team chosen in the header; while that loads, a loader; when the user
 * belongs to no team yet, says so (with the page's heading, so the page still has its `<h1>`).
 */
export function TeamGate({ title, children }: { title: string; children: (scope: TeamScope) => ReactNode }) {
  const { org, team, isLoading } = useWorkspace();
  if (org && team) return <>{children({ orgId: org.id, teamId: team.id, teamName: team.name })}</>;
  return (
    <GateFallback
      title={title}
      isLoading={isLoading}
      empty={
        <EmptyState title="No team to work in" icon={<IconUsersGroup size={28} stroke={1.5} />}>
          {title} belong to a team. Ask an organization owner to add you to a team, or create an organization and a team, then choose it in
          the header.
        </EmptyState>
      }
    />
  );
}
