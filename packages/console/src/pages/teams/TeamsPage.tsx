import { Anchor, Badge, Button, Group, Modal, SegmentedControl, Stack, Table, Text, TextInput, Textarea } from "@mantine/core";
import { IconPlus, IconUsersGroup } from "@tabler/icons-react";
import { CreateTeamBody } from "@burnbox/contracts/src/tenancy/teams.schemas";
import { useContractForm } from "../../lib/contract-form";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole } from "../../api/workspace";
import { ApiErrorAlert, DialogActions, EmptyState, PageHeader, useListParams, useParamOnce, ListView, ListSearch } from "../../components";
import { teamsKeys } from "./keys";
import { OrgGate } from "../../components/OrgGate";
import { useTeams, useCreateTeam } from "./api";
import { ListTable } from "../../components/ListTable";

export default function TeamsPage() {
  return <OrgGate title="Teams">{(org) => <Teams org={org} />}</OrgGate>;
}

const ARCHIVED = [
  { value: "false", label: "Active" },
  { value: "true", label: "Archived" },
  { value: "all", label: "All" },
];

function Teams({ org }: { org: OrgWithRole }) {
  const perms = useOrgPermissions(org.id);
  const list = useListParams({ filters: ["q", "archived"] as const });
  const archived = (list.filters.archived ?? "false") as "false" | "true" | "all";
  const q = useTeams({ orgId: org.id, list, listPerPage: list.perPage, listFilters: list.filters, archived });
  const canCreate = perms.can("org.teams.create");
  // `/teams?new=1` (the inbox page's "Create a team") opens the create form
  const linkedNew = useParamOnce("new") === "1";
  const [creating, setCreating] = useState(linkedNew);
  return (
    <>
      <PageHeader
        title="Teams"
        description={
          perms.can("org.teams.manage")
            ? `Every team of ${org.name}.`
            : `Your teams in ${org.name}. Owners and admins of the organization see every team.`
        }
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create team
            </Button>
          )
        }
      />
      <Group mb="sm" wrap="wrap">
        <ListSearch params={list} filter="q" aria-label="Search teams" placeholder="Search teams" />
        <SegmentedControl
          aria-label="Which teams"
          data={ARCHIVED}
          value={archived}
          onChange={(v) => list.setFilter("archived", v === "false" ? undefined : v)}
        />
      </Group>
      <ListView
        query={q}
        loading={{ label: "Loading teams", height: 160 }}
        empty={
          <EmptyState
            title={archived === "true" ? "No archived teams" : "No teams"}
            icon={<IconUsersGroup size={28} stroke={1.5} />}
            action={canCreate && archived !== "true" && <Button onClick={() => setCreating(true)}>Create team</Button>}
          >
            A team shares inboxes, domains, API keys and webhooks.
          </EmptyState>
        }
        table={{ label: "Teams", minWidth: 600 }}
        pagination={{ params: list }}
      >
        {(rows) => (
          <ListTable
            striped
            highlightOnHover
            verticalSpacing="xs"
            columns={[
              "Team",
              { label: "Members", ta: "right" },
              { label: "Domains", ta: "right" },
              { label: "Active inboxes", ta: "right" },
            ]}
          >
            {rows.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Anchor component={Link} to={`/teams/${t.id}`} fw={500}>
                      {t.name}
                    </Anchor>
                    {t.is_archived && (
                      <Badge color="gray" variant="light">
                        Archived
                      </Badge>
                    )}
                  </Group>
                  {t.description && (
                    <Text size="xs" c="dimmed">
                      {t.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{t.member_count}</Table.Td>
                <Table.Td ta="right">{t.domain_count}</Table.Td>
                <Table.Td ta="right">{t.active_inboxes}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <CreateTeamModal orgId={org.id} opened={creating && canCreate} onClose={() => setCreating(false)} />
    </>
  );
}

function CreateTeamModal({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const form = useContractForm(CreateTeamBody, { name: "", description: "" }, { toBody: teamBody });
  const create = useCreateTeam(
    { orgId },
    { invalidates: [teamsKeys.all, workspaceKeys.teams(orgId)], onSuccess: (t) => navigate(`/teams/${t.id}`) },
  );
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title="Create a team">
      <form onSubmit={form.onSubmit((values) => create.mutate(teamBody(values)))}>
        <Stack>
          <TextInput label="Name" required {...form.getInputProps("name")} data-autofocus />
          <Textarea label="Description" {...form.getInputProps("description")} autosize minRows={2} />
          <Text size="sm" c="dimmed">
            You become the team's lead.
          </Text>
          <ApiErrorAlert error={create.error} />
          <DialogActions confirmLabel="Create team" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

const teamBody = (v: { name: string; description: string }) => ({
  name: v.name.trim(),
  ...(v.description.trim() ? { description: v.description.trim() } : {}),
});
