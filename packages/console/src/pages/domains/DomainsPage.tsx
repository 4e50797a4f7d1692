import { Anchor, Button, Group, Modal, Select, Stack, Switch, Table, Text, TextInput } from "@mantine/core";
import { IconCircleCheck, IconPlus, IconTrash, IconWorldWww } from "@tabler/icons-react";
import { useState } from "react";
import { CreateDomainBody } from "@burnbox/contracts/src/tenancy/domains.schemas";
import { Link, useNavigate } from "react-router";
import { NotAllowed, useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole } from "../../api/workspace";
import {
  ApiErrorAlert,
  DialogActions,
  EmptyState,
  PageHeader,
  SelectAllCheckbox,
  SelectRowCheckbox,
  Time,
  useListParams,
  useSelection,
  withCount,
  ListView,
  ListSearch,
  ConfirmModal,
} from "../../components";
import { OrgGate } from "../../components/OrgGate";
import { useContractForm } from "../../lib/contract-form";
import { domainsKeys } from "./keys";
import { DomainStatus, STATUS } from "./status";
import { useDomains, useBulkVerifyDomains, useBulkDeleteDomains, useAddDomain } from "./api";
import { OutcomeNotice, type Outcome } from "../../components/OutcomeNotice";

export default function DomainsPage() {
  return <OrgGate title="Domains">{(org) => <Domains org={org} />}</OrgGate>;
}

const STATUS_FILTER = [{ value: "", label: "Any status" }, ...Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label }))];

function Domains({ org }: { org: OrgWithRole }) {
  const perms = useOrgPermissions(org.id);
  const canManage = perms.can("org.domains.manage");
  const list = useListParams({ filters: ["q", "status"] as const });
  const q = useDomains(
    { orgId: org.id, list, listPerPage: list.perPage, listFilters: list.filters },
    { enabled: perms.can("org.domains.view") },
  );
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [force, setForce] = useState(false);
  const [notice, setNotice] = useState<Outcome | null>(null);
  const invalidates = [domainsKeys.all(org.id)];
  const rows = q.data?.data ?? [];
  const selection = useSelection(rows.map((d) => d.id));
  const nameOf = (id: string) => rows.find((d) => d.id === id)?.domain_name ?? id;

  const bulkVerify = useBulkVerifyDomains(
    { orgId: org.id },
    {
      invalidates,
      onSuccess: (r) =>
        setNotice({
          text: `Checked ${r.results.length} ${r.results.length === 1 ? "domain" : "domains"}.`,
          details: [
            ...r.results.map((d) => `${d.domain_name}: ${STATUS[d.status].label}`),
            ...r.failed.map((f) => `${nameOf(f.domain_id)}: not checked (${f.reason})`),
          ],
        }),
    },
  );
  const bulkDelete = useBulkDeleteDomains(
    { orgId: org.id },
    {
      invalidates,
      onSuccess: (r) => {
        setDeleting(false);
        selection.clear();
        setNotice({
          text: `Deleted ${r.deleted} ${r.deleted === 1 ? "domain" : "domains"}.`,
          details: r.skipped.map((s) => `${nameOf(s.domain_id)}: kept (${s.reason})`),
        });
      },
    },
  );

  if (!perms.isLoading && !perms.can("org.domains.view"))
    return (
      <>
        <PageHeader title="Domains" />
        <NotAllowed />
      </>
    );

  return (
    <>
      <PageHeader
        title="Domains"
        description={`The mail domains of ${org.name}. A domain receives mail once its DNS is verified and it is assigned to a team.`}
        actions={
          canManage && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add domain
            </Button>
          )
        }
      />
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Group wrap="wrap">
          <ListSearch params={list} filter="q" aria-label="Search domains" placeholder="Search domains" />
          <Select
            aria-label="Status"
            data={STATUS_FILTER}
            value={list.filters.status ?? ""}
            allowDeselect={false}
            onChange={(v) => list.setFilter("status", v || undefined)}
            w={200}
          />
        </Group>
        {canManage && (
          <Group wrap="wrap">
            <Button
              variant="light"
              leftSection={<IconCircleCheck size={16} />}
              disabled={selection.size === 0}
              loading={bulkVerify.isPending}
              onClick={() => bulkVerify.mutate(selection.ids)}
            >
              {withCount("Verify selected", selection)}
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              disabled={selection.size === 0}
              onClick={() => setDeleting(true)}
            >
              {withCount("Delete selected", selection)}
            </Button>
          </Group>
        )}
      </Group>
      <OutcomeNotice outcome={notice} onClose={() => setNotice(null)} />
      <ListView
        query={q}
        error={q.error ?? bulkVerify.error}
        loading={{ label: "Loading domains", height: 160 }}
        empty={
          <EmptyState
            title="No domains"
            icon={<IconWorldWww size={28} stroke={1.5} />}
            action={canManage && <Button onClick={() => setAdding(true)}>Add domain</Button>}
          >
            {canManage
              ? "Add a domain you control; the console then shows the two DNS records that prove it."
              : "An owner or admin of the organization adds its domains."}
          </EmptyState>
        }
        table={{ label: "Domains", minWidth: 720 }}
        pagination={{ params: list }}
      >
        {(rows) => (
          <Table striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                {canManage && (
                  <Table.Th w={40}>
                    <SelectAllCheckbox selection={selection} label="Select every domain on this page" />
                  </Table.Th>
                )}
                <Table.Th>Domain</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Teams</Table.Th>
                <Table.Th ta="right">Active inboxes</Table.Th>
                <Table.Th>Last checked</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id}>
                  {canManage && (
                    <Table.Td>
                      <SelectRowCheckbox selection={selection} id={d.id} label={`Select ${d.domain_name}`} />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Anchor component={Link} to={`/domains/${d.id}`} fw={500}>
                      {d.domain_name}
                    </Anchor>
                    {d.description && (
                      <Text size="xs" c="dimmed">
                        {d.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <DomainStatus status={d.status} />
                  </Table.Td>
                  <Table.Td ta="right">{d.team_count}</Table.Td>
                  <Table.Td ta="right">{d.active_inboxes}</Table.Td>
                  <Table.Td>{d.dns_last_checked_at ? <Time value={d.dns_last_checked_at} /> : <Text c="dimmed">never</Text>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListView>
      <AddDomainModal orgId={org.id} opened={adding} onClose={() => setAdding(false)} />
      <ConfirmModal
        opened={deleting}
        title="Delete domains?"
        confirmLabel="Delete"
        loading={bulkDelete.isPending}
        error={bulkDelete.error}
        onConfirm={() => bulkDelete.mutate({ ids: selection.ids, force })}
        onClose={() => setDeleting(false)}
        details={
          <Switch
            label="Also delete domains that still have active inboxes (they stop receiving mail)"
            checked={force}
            onChange={(e) => setForce(e.currentTarget.checked)}
          />
        }
      >
        Delete {selection.size} {selection.size === 1 ? "domain" : "domains"}: their team assignments go with them and no new mail is
        accepted for them. Open a domain to see its full impact first.
      </ConfirmModal>
    </>
  );
}

function AddDomainModal({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const form = useContractForm(CreateDomainBody, { domain_name: "", description: "" }, { toBody: bodyOf });
  const add = useAddDomain({ orgId }, { invalidates: [domainsKeys.all(orgId)], onSuccess: (d) => navigate(`/domains/${d.id}`) });
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title="Add a domain">
      <form onSubmit={form.onSubmit((values) => add.mutate(bodyOf(values)))}>
        <Stack>
          <TextInput label="Domain name" placeholder="mail.example.com" required {...form.getInputProps("domain_name")} data-autofocus />
          <TextInput label="Description" {...form.getInputProps("description")} />
          <ApiErrorAlert error={add.error} />
          <DialogActions confirmLabel="Add domain" loading={add.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

const bodyOf = (v: { domain_name: string; description: string }) => ({
  domain_name: v.domain_name.trim(),
  ...(v.description.trim() ? { description: v.description.trim() } : {}),
});
