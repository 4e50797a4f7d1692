import { useQuery, type QueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { BurnBox, components } from "@burnbox/sdk";
import { unwrap, useApi } from "./query";
import { workspaceKeys } from "./keys";

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

interface Choice {
  orgId?: string;
  teamId?: string;
}

/** The org and team chosen last time in this browser (ids only). */
export function remembered(): Choice {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Choice;
  } catch {
    return {};
  }
}

type TeamPage = components["schemas"]["TeamPage"];

const orgsQuery = (bb: BurnBox) => ({
  queryKey: workspaceKeys.orgs(),
  queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(bb.api.GET("/orgs", { params: { query: { per_page: 100 } }, signal })),
});

const teamsQuery = (bb: BurnBox, orgId: string) => ({
  queryKey: workspaceKeys.teams(orgId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    unwrap(bb.api.GET("/orgs/{orgId}/teams", { params: { path: { orgId }, query: { per_page: 100 } }, signal })),
});

const pickOrg = (orgs: OrgWithRole[], choice: Choice) => orgs.find((o) => o.id === choice.orgId) ?? orgs[0];
const usableTeams = (page: TeamPage | undefined) => (page?.data ?? []).filter((t) => !t.is_archived);
const pickTeam = (teams: Team[], choice: Choice) => teams.find((t) => t.id === choice.teamId) ?? teams[0];

/**
 * The org and team the shell will choose, fetched through the same queries (so the provider finds
 * them in the cache): a page's loader starts its own request with it before the shell renders.
 */
export async function resolveWorkspace(queryClient: QueryClient, bb: BurnBox): Promise<{ org?: OrgWithRole; team?: Team }> {
  const choice = remembered();
  // the remembered org's teams beside the org list: one round trip instead of two on a reload
  const teams = choice.orgId ? queryClient.fetchQuery(teamsQuery(bb, choice.orgId)).catch(() => undefined) : undefined;
  const org = pickOrg((await queryClient.fetchQuery(orgsQuery(bb))).data, choice);
  if (!org) return {};
  const page = org.id === choice.orgId ? await teams : await queryClient.fetchQuery(teamsQuery(bb, org.id));
  return { org, team: pickTeam(usableTeams(page), choice) };
}

/**
 * The org and team the console works in (the header's switcher). Pages of a team (inboxes, keys,
 * webhooks) read `useWorkspace().team`. The choice (ids only, nothing secret) survives reloads.
 */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const bb = useApi();
  const [choice, setChoice] = useState(remembered);
  const orgsQ = useQuery(orgsQuery(bb));
  const orgs = orgsQ.data?.data ?? [];
  const org = pickOrg(orgs, choice);
  const teamsQ = useQuery({ ...teamsQuery(bb, org?.id ?? ""), enabled: org !== undefined });
  const teams = useMemo(() => usableTeams(teamsQ.data), [teamsQ.data]);
  const team = pickTeam(teams, choice);

  const save = useCallback((next: Choice) => {
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
