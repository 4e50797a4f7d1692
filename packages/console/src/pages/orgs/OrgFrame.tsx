import { Anchor, Badge, Center, Group, Loader, Tabs } from "@mantine/core";
import type { ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import type { components } from "@burnbox/sdk";
import { useOrgPermissions, type OrgPermissions } from "../../api/permissions";
import { useWorkspace } from "../../api/workspace";
import { ApiErrorAlert, PageHeader } from "../../components";
import { useOrg } from "./api";

export type Org = components["schemas"]["Org"];

export interface OrgScope {
  orgId: string;
  org: Org;
  perms: OrgPermissions;
  /** the caller's org role (undefined for a system admin who is no member) */
  myRole: string | undefined;
}

const TABS = [
  { value: "settings", label: "Settings" },
  { value: "members", label: "Members" },
  { value: "invites", label: "Invites" },
] as const;

/** An org's page: its name as the heading, the tabs (settings, members, invites), then `children`. */
export function OrgFrame({ tab, children }: { tab: (typeof TABS)[number]["value"]; children: (scope: OrgScope) => ReactNode }) {
  const { orgId = "" } = useParams();
  const navigate = useNavigate();
  const w = useWorkspace();
  const perms = useOrgPermissions(orgId);
  const org = useOrg({ orgId });
  const label = TABS.find((t) => t.value === tab)!.label;
  if (org.isPending || perms.isLoading)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading the organization" />
      </Center>
    );
  if (org.isError)
    return (
      <>
        <PageHeader title={label} />
        <ApiErrorAlert error={org.error} />
      </>
    );
  const current = w.org?.id === orgId;
  return (
    <>
      <PageHeader
        title={`${org.data.name}: ${label}`}
        description={
          <Group gap="xs" component="span">
            <span>{org.data.slug}</span>
            {perms.membership && <Badge variant="light">{perms.membership.role}</Badge>}
            {!current && w.orgs.some((o) => o.id === orgId) && (
              <Anchor component="button" type="button" size="sm" onClick={() => w.selectOrg(orgId)}>
                Work in this organization
              </Anchor>
            )}
          </Group>
        }
        actions={
          <Anchor component={Link} to="/orgs" size="sm">
            All organizations
          </Anchor>
        }
      />
      <Tabs value={tab} onChange={(v) => v && void navigate(`/orgs/${orgId}/${v}`)} mb="lg">
        <Tabs.List aria-label="Organization pages">
          {TABS.filter((t) => t.value !== "invites" || perms.can("org.members.invite")).map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children({ orgId, org: org.data, perms, myRole: perms.membership?.role })}
    </>
  );
}
