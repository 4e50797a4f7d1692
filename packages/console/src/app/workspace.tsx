import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { components } from "@burnbox/sdk";
import { useApiQuery } from "../api/query";
import { workspaceKeys } from "../api/keys";

export type OrgWithRole = components["schemas"]["OrgWithRole"];
export type Team = components["schemas"]["Team"];

export interface Workspace {
  /** The orgs the user belongs to (first 100). */
  orgs: OrgWithRole[];
  /** The chosen org: the remembered one, else the first; undefined while loading or when the user has none. */
  org: OrgWithRole | undefined;
  teams: Team[];
  /** The chosen team of that org: the remembered one, else the first. */
  team: Team | undefined;
  isLoading: boolean;
  selectOrg: (orgId: string) => void;
  selectTeam: (teamId: string) => void;
}

const STORAGE_KEY = "burnbox.workspace";
const WorkspaceContext = createContext<Workspace | null>(null);

function remembered(): { orgId?: string; teamId?: string } {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as { orgId?: string; teamId?: string };
  } catch {
    return {};
  }
}

/**
 * The org and team the console works in (the header's switcher). Pages of a team (inboxes, keys,
 * webhooks) read `useWorkspace().team`. The choice (ids only, nothing secret) survives reloads.
 */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [choice, setChoice] = useState(remembered);
  const orgsQ = useApiQuery(workspaceKeys.orgs(), (bb, signal) => bb.api.GET("/orgs", { params: { query: { per_page: 100 } }, signal }));
  const orgs = orgsQ.data?.data ?? [];
  const org = orgs.find((o) => o.id === choice.orgId) ?? orgs[0];
  const teamsQ = useApiQuery(
    workspaceKeys.teams(org?.id ?? ""),
    (bb, signal) => bb.api.GET("/orgs/{orgId}/teams", { params: { path: { orgId: org!.id }, query: { per_page: 100 } }, signal }),
    { enabled: org !== undefined },
  );
  const teams = useMemo(() => (teamsQ.data?.data ?? []).filter((t) => !t.is_archived), [teamsQ.data]);
  const team = teams.find((t) => t.id === choice.teamId) ?? teams[0];

  const save = useCallback((next: { orgId?: string; teamId?: string }) => {
    setChoice(next);
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  }, []);
  const value = useMemo<Workspace>(
    () => ({
      orgs,
      org,
      teams,
      team,
      isLoading: orgsQ.isPending || (org !== undefined && teamsQ.isPending),
      selectOrg: (orgId) => save({ orgId }),
      selectTeam: (teamId) => save({ orgId: org?.id, teamId }),
    }),
    [orgs, org, teams, team, orgsQ.isPending, teamsQ.isPending, save],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): Workspace {
  const w = useContext(WorkspaceContext);
  if (!w) throw new Error("useWorkspace outside the signed-in shell");
  return w;
}
