import { ActionIcon, Anchor, Button, Group, Modal, Paper, Select, Stack, Switch, Table, Text, Title, Tooltip } from "@mantine/core";
import { IconAdjustments, IconPlus, IconUnlink } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole, Team } from "../../api/workspace";
import { ApiErrorAlert, DialogActions, ConfirmModal, ListView } from "../../components";
import { teamsKeys } from "./keys";
import type { TeamPermissions } from "../../api/team-permissions";
import { tierSettingsOf, TierSettingsForm } from "../../components/TierSettingsFields";
import {
  useAssignments,
  useUpdateAssignment,
  useUnassignDomain,
  useVerifiedDomains,
  useAssignDomain,
  type Assignment,
  type Access,
} from "./api";

export const ACCESS: { value: Access; label: string }[] = [
  { value: "full", label: "Full (create and read)" },
  { value: "create_inbox", label: "Create inboxes (read own)" },
  { value: "read_only", label: "Read only" },
];

export function AssignmentsSection({ org, team, perms }: { org: OrgWithRole; team: Team; perms: TeamPermissions }) {
  const path = { orgId: org.id, teamId: team.id };
  const orgPerms = useOrgPermissions(org.id);
  const canAssign = orgPerms.can("org.domains.manage") && !team.is_archived;
  const canChange = perms.can("team.domains.manage") && !team.is_archived;
  const q = useAssignments({ orgId: org.id, teamId: team.id, path });
  // `/teams/:id?assign=1` (the inbox page's "Assign a domain") opens the assign form
  const [params, setParams] = useSearchParams();
  const [assigning, setAssigning] = useState(params.get("assign") === "1" && canAssign);
  useEffect(() => {
    if (!params.has("assign")) return;
    if (orgPerms.isLoading) return;
    if (canAssign) setAssigning(true);
    const rest = new URLSearchParams(params);
    rest.delete("assign");
    setParams(rest, { replace: true });
  }, [params, setParams, canAssign, orgPerms.isLoading]);
  const [editing, setEditing] = useState<Assignment | null>(null);
  const [unassigning, setUnassigning] = useState<Assignment | null>(null);
  const [force, setForce] = useState(false);
  const invalidates = [teamsKeys.all, workspaceKeys.teams(org.id), ["domains", org.id]];
  const update = useUpdateAssignment({ path }, { invalidates, onSuccess: () => setEditing(null) });
  const unassign = useUnassignDomain({ path }, { invalidates, onSuccess: () => setUnassigning(null) });
  const rows = q.data?.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="team-domains">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="team-domains">
          Domains
        </Title>
        {canAssign && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAssigning(true)}>
            Assign domain
          </Button>
        )}
      </Group>
      <ListView
        query={q}
        error={q.error ?? (editing ? null : update.error)}
        loading={{ label: "Loading domains", height: 80 }}
        empty={
          <Text size="sm" c="dimmed">
            No domain is assigned to this team yet: its members cannot create inboxes.
          </Text>
        }
        table={{ label: "Domain assignments", minWidth: 520 }}
      >
        {(page) => (
          <Table striped verticalSpacing="xs" aria-label="Assigned domains">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Domain</Table.Th>
                <Table.Th>Access</Table.Th>
                {canChange && <Table.Th w={88} aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/domains/${a.domain_id}`}>
                      {a.domain_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {canChange ? (
                      <Select
                        aria-label={`Access to ${a.domain_name}`}
                        data={ACCESS}
                        value={a.access_level}
                        allowDeselect={false}
                        w={240}
                        onChange={(v) => v && v !== a.access_level && update.mutate({ domainId: a.domain_id, body: { access_level: v } })}
                      />
                    ) : (
                      <Text size="sm">{ACCESS.find((x) => x.value === a.access_level)?.label}</Text>
                    )}
                  </Table.Td>
                  {canChange && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={`Settings of ${a.domain_name}`}>
                          <ActionIcon variant="subtle" aria-label={`Settings of ${a.domain_name}`} onClick={() => setEditing(a)}>
                            <IconAdjustments size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={`Unassign ${a.domain_name}`}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Unassign ${a.domain_name}`}
                            onClick={() => {
                              setForce(false);
                              unassign.reset();
                              setUnassigning(a);
                            }}
                          >
                            <IconUnlink size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListView>
      <AssignModal opened={assigning} org={org} team={team} assigned={rows.map((a) => a.domain_id)} onClose={() => setAssigning(false)} />
      <Modal
        closeButtonProps={{ "aria-label": "Close" }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={`Settings of ${editing?.domain_name ?? ""} in ${team.name}`}
        size="lg"
      >
        {editing && (
          <TierSettingsForm
            tier="assignment"
            initial={tierSettingsOf(editing.settings)}
            saving={update.isPending}
            error={update.error}
            onSave={(settings) => update.mutate({ domainId: editing.domain_id, body: { settings } })}
          />
        )}
      </Modal>
      <ConfirmModal
        opened={unassigning !== null}
        title={`Unassign ${unassigning?.domain_name ?? ""}?`}
        confirmLabel="Unassign"
        loading={unassign.isPending}
        error={unassign.error}
        onConfirm={() => unassigning && unassign.mutate({ domainId: unassigning.domain_id, force })}
        onClose={() => setUnassigning(null)}
        details={
          <Switch
            label="Also when the team still has active inboxes there (they are deactivated)"
            checked={force}
            onChange={(e) => setForce(e.currentTarget.checked)}
          />
        }
      >
        The team can no longer create inboxes on this domain. The domain itself stays in the organization.
      </ConfirmModal>
    </Paper>
  );
}

/** Stays mounted while closed, so closing it gives the focus back to what opened it; its body (state, queries) mounts on each opening. */
function AssignModal({ opened, ...body }: { opened: boolean; org: OrgWithRole; team: Team; assigned: string[]; onClose: () => void }) {
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={opened}
      onClose={body.onClose}
      title={`Assign a domain to ${body.team.name}`}
    >
      <AssignBody {...body} />
    </Modal>
  );
}

function AssignBody({ org, team, assigned, onClose }: { org: OrgWithRole; team: Team; assigned: string[]; onClose: () => void }) {
  const [domainId, setDomainId] = useState<string | null>(null);
  const [access, setAccess] = useState<Access>("full");
  const verified = useVerifiedDomains({ orgId: org.id });
  const assign = useAssignDomain(
    { orgId: org.id, teamId: team.id },
    { invalidates: [teamsKeys.all, workspaceKeys.teams(org.id), ["domains", org.id]], onSuccess: onClose },
  );
  const options = (verified.data?.data ?? []).filter((d) => !assigned.includes(d.id)).map((d) => ({ value: d.id, label: d.domain_name }));
  return (
    <Stack>
      <Select
        label="Domain"
        description="Only verified domains can be assigned."
        data={options}
        value={domainId}
        onChange={setDomainId}
        searchable
        nothingFoundMessage={verified.isPending ? "Loading…" : "No verified domain left to assign"}
      />
      <Select label="Access" data={ACCESS} value={access} allowDeselect={false} onChange={(v) => v && setAccess(v)} />
      <ApiErrorAlert error={verified.error ?? assign.error} />
      <DialogActions
        confirmLabel="Assign"
        disabled={!domainId}
        loading={assign.isPending}
        onConfirm={() => domainId && assign.mutate({ domain_id: domainId, access_level: access })}
        onCancel={onClose}
      />
    </Stack>
  );
}
