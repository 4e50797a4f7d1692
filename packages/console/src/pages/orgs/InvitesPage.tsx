import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  List,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconMailForward } from "@tabler/icons-react";
import { BulkCreateInvitesBody, CreateInviteBody } from "@burnbox/contracts/src/tenancy/invites.schemas";
import { useContractForm } from "../../lib/contract-form";
import { firstItemError } from "../../lib/item-errors";
import { useState } from "react";
import type { components } from "@burnbox/sdk";
import { useUser } from "../../api/session";
import { NotAllowed } from "../../api/permissions";
import { ApiErrorAlert, ConfirmModal, EmptyState, Time, useListParams, ListView } from "../../components";
import { orgsKeys } from "./keys";
import { OrgFrame, type OrgScope } from "./OrgFrame";
import { assignableRoles } from "./ranks";
import { roleLabel, useOrgRoles, type Role } from "./roles";
import { parseAddresses } from "./addresses";
import { useOrgTeams, useSendInvite, useSendBulkInvites, useInvites, useRevokeInvite, type Invite } from "./api";
import { ListTable } from "../../components/ListTable";

type BulkResult = components["schemas"]["BulkCreateInvitesResult"];
type Status = Invite["status"];

const STATUS: Record<Status, { label: string; color: string; explain: string }> = {
  pending: { label: "Pending", color: "blue", explain: "sent, not answered yet" },
  accepted: { label: "Accepted", color: "green", explain: "joined" },
  expired: { label: "Expired", color: "gray", explain: "not accepted in time" },
  revoked: { label: "Revoked", color: "red", explain: "withdrawn" },
};
const SKIP_REASON: Record<BulkResult["skipped"][number]["reason"], string> = {
  duplicate_in_request: "listed twice",
  already_member: "already a member",
  already_invited: "already has a pending invite",
};

/** `/orgs/:orgId/invites`: invite one address or paste many (`POST …/invites`, `…/invites/bulk`), list by state, revoke. */
export default function InvitesPage() {
  return (
    <OrgFrame tab="invites">
      {(scope) =>
        scope.perms.can("org.members.invite") ? (
          <Invites scope={scope} />
        ) : (
          <NotAllowed>Inviting people and seeing the invites needs an owner or admin role.</NotAllowed>
        )
      }
    </OrgFrame>
  );
}

function Invites({ scope }: { scope: OrgScope }) {
  const { orgId, myRole } = scope;
  const me = useUser();
  const roles = useOrgRoles();
  const offered = assignableRoles(roles, myRole, "", { bypass: me.is_system_admin });
  const teams = useOrgTeams({ orgId });
  const teamOptions = (teams.data?.data ?? []).filter((t) => !t.is_archived).map((t) => ({ value: t.id, label: t.name }));
  return (
    <Stack gap="xl">
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <SingleInvite orgId={orgId} roles={offered} teams={teamOptions} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <BulkInvite orgId={orgId} roles={offered} teams={teamOptions} />
        </Grid.Col>
      </Grid>
      <InviteList orgId={orgId} roles={roles} />
    </Stack>
  );
}

type Option = { value: string; label: string };
const assignments = (teamIds: string[]) =>
  teamIds.length ? { team_assignments: teamIds.map((team_id) => ({ team_id, team_role: "member" })) } : {};

/** The role and teams of an invite form (one address or many): `value` its values, `onChange` the ones that change. */
function RoleAndTeams({
  roles,
  teams,
  value,
  onChange,
}: {
  roles: Role[];
  teams: Option[];
  value: { role: string | null; teamIds: string[] };
  onChange: (patch: { role?: string | null; teamIds?: string[] }) => void;
}) {
  return (
    <>
      <Select
        label="Role in the organization"
        required
        data={roles.map((r) => ({ value: r.value, label: r.label }))}
        value={value.role}
        onChange={(role) => onChange({ role })}
        allowDeselect={false}
      />
      {teams.length > 0 && (
        <MultiSelect
          label="Also join these teams (as member)"
          data={teams}
          value={value.teamIds}
          onChange={(teamIds) => onChange({ teamIds })}
          clearable
        />
      )}
    </>
  );
}

function SingleInvite({ orgId, roles, teams }: { orgId: string; roles: Role[]; teams: Option[] }) {
  const form = useContractForm<InviteValues>(CreateInviteBody, { email: "", role: "member", teamIds: [] }, { toBody: inviteBody });
  const send = useSendInvite(
    { orgId },
    {
      invalidates: [orgsKeys.invites(orgId)],
      onSuccess: (inv) => {
        notifications.show({ message: `Invite sent to ${inv.email}` });
        form.setFieldValue("email", "");
      },
    },
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-one">
      <form
        onSubmit={form.onSubmit((values) => {
          if (values.role) send.mutate(inviteBody(values));
        })}
      >
        <Stack>
          <Title order={2} size="h4" id="invite-one">
            Invite someone
          </Title>
          <TextInput label="Email address" type="email" required {...form.getInputProps("email")} />
          <RoleAndTeams roles={roles} teams={teams} value={form.getValues()} onChange={form.setValues} />
          <Text size="xs" c="dimmed">
            The invite mail holds a link valid for 48 hours (unless the operator set another time). A new invite to the same address
            replaces the pending one.
          </Text>
          <ApiErrorAlert error={send.error} />
          <Group>
            <Button type="submit" leftSection={<IconMailForward size={16} />} loading={send.isPending}>
              Send invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

type InviteValues = { email: string; role: string | null; teamIds: string[] };
const inviteBody = (v: InviteValues) => ({
  email: v.email.trim(),
  org_role: v.role ?? "",
  ...assignments(v.teamIds),
});

type BulkValues = { text: string; role: string | null; teamIds: string[] };
const bulkBody = (v: BulkValues) => ({ emails: parseAddresses(v.text), org_role: v.role ?? "", ...assignments(v.teamIds) });

function BulkInvite({ orgId, roles, teams }: { orgId: string; roles: Role[]; teams: Option[] }) {
  const form = useContractForm<BulkValues>(BulkCreateInvitesBody, { text: "", role: "member", teamIds: [] }, { toBody: bulkBody });
  const { text } = form.getValues();
  const addresses = parseAddresses(text);
  const send = useSendBulkInvites({ orgId }, { invalidates: [orgsKeys.invites(orgId)], onSuccess: () => form.setFieldValue("text", "") });
  const tooMany = addresses.length > 50;
  const submit = form.onSubmit((v) => {
    if (v.role && addresses.length > 0 && !tooMany) send.mutate(bulkBody(v));
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-many">
      <form onSubmit={submit}>
        <Stack>
          <Title order={2} size="h4" id="invite-many">
            Invite many
          </Title>
          <Textarea
            label="Email addresses"
            description="Paste up to 50, separated by commas, spaces or new lines."
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps("text")}
            error={tooMany ? `${addresses.length} addresses: 50 at most per batch` : firstItemError(form.errors, "emails", addresses)}
          />
          <RoleAndTeams roles={roles} teams={teams} value={form.getValues()} onChange={form.setValues} />
          <ApiErrorAlert error={send.error} />
          {send.data && <BulkOutcome result={send.data} />}
          <Group>
            <Button type="submit" variant="default" disabled={addresses.length === 0 || tooMany} loading={send.isPending}>
              {addresses.length > 0 ? `Send ${addresses.length} invite${addresses.length === 1 ? "" : "s"}` : "Send invites"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function BulkOutcome({ result }: { result: BulkResult }) {
  return (
    <Alert
      role="status"
      color={result.skipped.length ? "yellow" : "green"}
      variant="light"
      title={`${result.created.length} invited, ${result.skipped.length} skipped`}
    >
      {result.skipped.length > 0 && (
        <List size="sm" aria-label="Skipped addresses">
          {result.skipped.map((s) => (
            <List.Item key={`${s.email}:${s.reason}`}>
              {s.email}: {SKIP_REASON[s.reason]}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function InviteList({ orgId, roles }: { orgId: string; roles: Role[] }) {
  const list = useListParams({ filters: ["status"] as const, perPage: 20 });
  const status = (list.filters.status ?? "pending") as Status;
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const q = useInvites({ orgId, list, listPerPage: list.perPage, status });
  const revoke = useRevokeInvite(
    { orgId },
    {
      invalidates: [orgsKeys.invites(orgId)],
      onSuccess: (_, inv) => {
        setRevoking(null);
        notifications.show({ message: `The invite to ${inv.email} is revoked; its link no longer works` });
      },
    },
  );
  return (
    <Stack component="section" aria-labelledby="invite-list">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4" id="invite-list">
          Invites
        </Title>
        <SegmentedControl
          aria-label="Invite state"
          data={(Object.keys(STATUS) as Status[]).map((s) => ({ value: s, label: STATUS[s].label }))}
          value={status}
          onChange={(v) => list.setFilter("status", v === "pending" ? undefined : v)}
        />
      </Group>
      <ListView
        query={q}
        loading={{ label: "Loading invites", height: 120 }}
        empty={
          <EmptyState title={`No ${STATUS[status].label.toLowerCase()} invites`} icon={<IconMailForward size={28} stroke={1.5} />}>
            {status === "pending"
              ? "Invite someone above: they get a mail with a link to join."
              : `Invites ${STATUS[status].explain} show here.`}
          </EmptyState>
        }
        table={{ label: "Invites", minWidth: 720 }}
        pagination={{ params: list, label: "Invite pages" }}
      >
        {(rows) => (
          <ListTable
            verticalSpacing="xs"
            aria-label={`${STATUS[status].label} invites`}
            columns={["Email", "Role", "Teams", "State", status === "accepted" ? "Accepted" : "Expires", "Sent"]}
            actions
          >
            {rows.map((inv) => (
              <Table.Tr key={inv.id}>
                <Table.Td>{inv.email}</Table.Td>
                <Table.Td>{roleLabel(roles, inv.org_role)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{inv.team_assignments.map((t) => t.team_name).join(", ") || "—"}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS[inv.status].color} variant="dot">
                    {STATUS[inv.status].label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {inv.status === "accepted" && inv.accepted_at ? (
                    <Time value={inv.accepted_at} />
                  ) : (
                    <Time value={inv.expires_at} mode="absolute" />
                  )}
                </Table.Td>
                <Table.Td>
                  <Time value={inv.created_at} />
                </Table.Td>
                <Table.Td ta="right">
                  {inv.status === "pending" && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Revoke the invite to ${inv.email}`}
                      onClick={() => setRevoking(inv)}
                    >
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke this invite?"
        confirmLabel="Revoke"
        loading={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        The link sent to {revoking?.email} stops working at once. You can invite the address again later.
      </ConfirmModal>
    </Stack>
  );
}
