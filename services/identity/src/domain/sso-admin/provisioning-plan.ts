import type { SsoDomainMapping, SsoMappingPreview, SsoProvider } from "@burnbox/contracts";

/** What a first SSO login provisions: the mappings of the email's domain win over the provider's defaults. */
export interface ProvisioningPlan {
  matching: SsoDomainMapping[];
  allowed: boolean;
  memberships: {
    org_id: string;
    org_role: SsoDomainMapping["org_role"];
    team_id: string | null;
    team_role: SsoDomainMapping["team_role"];
  }[];
}

export const emailDomainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

export function provisioningPlan(
  provider: Pick<SsoProvider, "auto_provision" | "default_org_id" | "default_org_role">,
  matching: SsoDomainMapping[],
): ProvisioningPlan {
  const memberships: ProvisioningPlan["memberships"] = matching.map((m) => ({
    org_id: m.org_id,
    org_role: m.org_role,
    team_id: m.team_id,
    team_role: m.team_role,
  }));
  if (memberships.length === 0 && provider.auto_provision && provider.default_org_id) {
    memberships.push({ org_id: provider.default_org_id, org_role: provider.default_org_role, team_id: null, team_role: null });
  }
  return { matching, allowed: provider.auto_provision || matching.length > 0, memberships };
}

/** `teamNames`: the name of each team the plan names, by id (from tenancy); a team it does not know gets null. */
export function previewOf(
  email: string,
  providerName: string,
  plan: ProvisioningPlan,
  teamNames: ReadonlyMap<string, string>,
): SsoMappingPreview {
  const teams = plan.memberships.flatMap((m) =>
    m.team_id ? [{ team_id: m.team_id, team_name: teamNames.get(m.team_id) ?? null, team_role: m.team_role ?? "member" }] : [],
  );
  return {
    email,
    email_domain: emailDomainOf(email),
    provider: providerName,
    matching_rules: plan.matching,
    would_provision: plan.allowed,
    org_role: plan.memberships[0]?.org_role ?? null,
    team_assignments: teams,
  };
}
