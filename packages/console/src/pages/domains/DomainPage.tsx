import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  List,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconRefresh, IconTransfer, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useIsSystemAdmin, useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole } from "../../api/workspace";
import { ApiErrorAlert, DialogActions, CopyButton, ListPagination, PageHeader, Time, useListParams, TableScroll } from "../../components";
import { OrgGate } from "../../components/OrgGate";
import { TransferModal } from "../../components/TransferModal";
import { DomainSettings } from "./DomainSettings";
import { domainsKeys } from "./keys";
import { CheckResult, DomainStatus, type Domain } from "./status";
import { useDomain, useVerifyDomain, useTransferDomain, useVerificationHistory, useDomainImpact, useDeleteDomain } from "./api";

export default function DomainPage() {
  return <OrgGate title="Domain">{(org) => <DomainView org={org} />}</OrgGate>;
}

const TRIGGER: Record<string, string> = { create: "when added", manual: "verify now", worker: "scheduled check" };

function DomainView({ org }: { org: OrgWithRole }) {
  const { domainId = "" } = useParams();
  const path = { orgId: org.id, domainId };
  const perms = useOrgPermissions(org.id);
  const isAdmin = useIsSystemAdmin();
  const canManage = perms.can("org.domains.manage");
  const navigate = useNavigate();
  const q = useDomain({ orgId: org.id, domainId, path });
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const verify = useVerifyDomain(
    { path },
    {
      invalidates: [domainsKeys.all(org.id)],
      onSuccess: (d) => setNotice(`Checked just now: ${d.status === "verified" ? "both records are in place." : "see the results below."}`),
    },
  );
  const transfer = useTransferDomain(
    { path },
    {
      invalidates: [domainsKeys.lists(org.id)],
      onSuccess: () => {
        setTransferring(false);
        void navigate("/domains", { replace: true });
      },
    },
  );

  if (q.error && !q.data)
    return (
      <>
        <PageHeader title="Domain" />
        <ApiErrorAlert error={q.error} />
        <BackLink />
      </>
    );
  if (!q.data) return <Skeleton h={240} aria-label="Loading the domain" />;
  const d = q.data;
  return (
    <>
      <BackLink />
      <PageHeader
        title={d.domain_name}
        description={d.description ?? undefined}
        actions={
          <>
            {canManage && (
              <Button leftSection={<IconRefresh size={16} />} loading={verify.isPending} onClick={() => verify.mutate(undefined)}>
                Verify now
              </Button>
            )}
            {isAdmin && (
              <Button variant="default" leftSection={<IconTransfer size={16} />} onClick={() => setTransferring(true)}>
                Transfer
              </Button>
            )}
            {canManage && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
                Delete
              </Button>
            )}
          </>
        }
      />
      {notice && (
        <Alert
          role="status"
          color="teal"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
          mb="sm"
        >
          {notice}
        </Alert>
      )}
      <ApiErrorAlert error={verify.error} />
      <Stack gap="lg">
        <Records domain={d} />
        <Checks domain={d} />
        <History orgId={org.id} domainId={domainId} />
        <DomainSettings orgId={org.id} domain={d} canManage={canManage} />
      </Stack>
      <DeleteDomainModal opened={deleting} orgId={org.id} domain={d} onClose={() => setDeleting(false)} />
      <TransferModal
        opened={transferring}
        title={`Transfer ${d.domain_name}`}
        fromOrgId={org.id}
        loading={transfer.isPending}
        error={transfer.error}
        onTransfer={(target) => transfer.mutate(target)}
        onClose={() => setTransferring(false)}
      >
        The domain moves to another organization: its team assignments here are removed and its active inboxes deactivated.
      </TransferModal>
      {!canManage && !perms.isLoading && (
        <Text size="sm" c="dimmed" mt="lg">
          Only owners and admins of the organization can check, delete or change a domain, or its settings.
        </Text>
      )}
    </>
  );
}

function BackLink() {
  return (
    <Anchor component={Link} to="/domains" size="sm" mb="xs" display="inline-flex" style={{ alignItems: "center", gap: 4 }}>
      <IconArrowLeft size={14} /> All domains
    </Anchor>
  );
}

/** The records to create, exactly as the verification reads them. */
function Records({ domain }: { domain: Domain }) {
  const spf = `v=spf1 a:${domain.mx_target} ~all`;
  const rows = [
    { type: "MX", name: domain.domain_name, value: domain.mx_target, extra: "priority 10", what: "MX record", required: true },
    { type: "TXT", name: domain.domain_name, value: domain.verification_record, extra: "", what: "TXT record", required: true },
    { type: "TXT", name: domain.domain_name, value: spf, extra: "optional (SPF)", what: "SPF record", required: false },
  ];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dns-records">
      <Title order={2} size="h4" id="dns-records" mb={4}>
        DNS records to create
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Create these at your DNS provider for <Code>{domain.domain_name}</Code> itself (not a subdomain). The MX and the first TXT record
        are required; the SPF record is informational.
      </Text>
      {/* on a phone, one card per record: a table's Value column would sit past the edge */}
      <Stack gap="xs" hiddenFrom="sm">
        {rows.map((r) => (
          <Paper key={r.what} withBorder p="xs" component="section" aria-label={r.what}>
            <Text size="sm" fw={600}>
              {r.type} ({r.required ? (r.extra ? `required, ${r.extra}` : "required") : r.extra})
            </Text>
            <RecordField label="Name" value={r.name} copyLabel={`Copy the ${r.what}'s name`} />
            <RecordField label="Value" value={r.value} copyLabel={`Copy the ${r.what}'s value`} />
          </Paper>
        ))}
      </Stack>
      <TableScroll label="DNS records" minWidth={560} visibleFrom="sm">
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Type</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Value</Table.Th>
              <Table.Th>Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.what}>
                <Table.Td>{r.type}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Code>{r.name}</Code>
                    <CopyButton value={r.name} label={`Copy the ${r.what}'s name`} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Code style={{ wordBreak: "break-all" }}>{r.value}</Code>
                    <CopyButton value={r.value} label={`Copy the ${r.what}'s value`} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {r.required ? (r.extra ? `required, ${r.extra}` : "required") : r.extra}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

/** One field of a DNS record on a phone's card: its label, then the text to copy. */
function RecordField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <>
      <Text size="xs" c="dimmed" mt={4}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Code style={{ wordBreak: "break-all" }}>{value}</Code>
        <CopyButton value={value} label={copyLabel} />
      </Group>
    </>
  );
}

function Checks({ domain }: { domain: Domain }) {
  const checked = domain.dns_last_checked_at !== null;
  const result = (ok: boolean) => (checked ? ok : null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dns-checks">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="dns-checks">
          Current result
        </Title>
        <DomainStatus status={domain.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Group gap="xs">
          <Text size="sm">MX record</Text>
          <CheckResult ok={result(domain.mx_verified)} what="MX record" />
        </Group>
        <Group gap="xs">
          <Text size="sm">TXT record</Text>
          <CheckResult ok={result(domain.txt_verified)} what="TXT record" />
        </Group>
        <Group gap="xs">
          <Text size="sm">SPF (optional)</Text>
          <CheckResult ok={result(domain.spf_verified)} what="SPF record" />
        </Group>
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="sm">
        Last checked: <Time value={domain.dns_last_checked_at} />. Unverified domains are also checked every hour. In use by{" "}
        {domain.team_count} {domain.team_count === 1 ? "team" : "teams"}, {domain.active_inboxes} active{" "}
        {domain.active_inboxes === 1 ? "inbox" : "inboxes"}.
      </Text>
    </Paper>
  );
}

function History({ orgId, domainId }: { orgId: string; domainId: string }) {
  const list = useListParams({ pageParam: "history_page", perPage: 10 });
  const q = useVerificationHistory({ orgId, domainId, list, listPerPage: list.perPage });
  const rows = q.data?.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dns-history">
      <Title order={2} size="h4" id="dns-history" mb="sm">
        Verification history
      </Title>
      <ApiErrorAlert error={q.error} />
      {q.isPending ? (
        <Skeleton h={80} aria-label="Loading the history" />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No checks yet.
        </Text>
      ) : (
        <TableScroll label="Verification history" minWidth={600}>
          <Table striped verticalSpacing="xs" aria-label="Verification history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Checked</Table.Th>
                <Table.Th>Trigger</Table.Th>
                <Table.Th>MX</Table.Th>
                <Table.Th>TXT</Table.Th>
                <Table.Th>SPF</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td>
                    <Time value={h.checked_at} mode="absolute" />
                  </Table.Td>
                  <Table.Td>{TRIGGER[h.trigger] ?? h.trigger}</Table.Td>
                  <Table.Td>
                    <CheckResult ok={h.mx_result} what="MX" />
                  </Table.Td>
                  <Table.Td>
                    <CheckResult ok={h.txt_result} what="TXT" />
                  </Table.Td>
                  <Table.Td>
                    <CheckResult ok={h.spf_result} what="SPF" />
                  </Table.Td>
                  <Table.Td>{h.error ?? ""}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <ListPagination params={list} envelope={q.data} label="History pages" />
    </Paper>
  );
}

/** Shows `GET …/impact` first; the delete button comes only with the figures. */
/** Stays mounted while closed, so closing it gives the focus back to what opened it; its body (state, queries) mounts on each opening. */
function DeleteDomainModal({ opened, ...body }: { opened: boolean; orgId: string; domain: Domain; onClose: () => void }) {
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={body.onClose} title={`Delete ${body.domain.domain_name}?`}>
      <DeleteDomainBody {...body} />
    </Modal>
  );
}

function DeleteDomainBody({ orgId, domain, onClose }: { orgId: string; domain: Domain; onClose: () => void }) {
  const navigate = useNavigate();
  const path = { orgId, domainId: domain.id };
  const [force, setForce] = useState(false);
  const impact = useDomainImpact({ orgId, domainId: domain.id, path });
  const del = useDeleteDomain(
    { path },
    { invalidates: [domainsKeys.lists(orgId)], onSuccess: () => navigate("/domains", { replace: true }) },
  );
  const i = impact.data;
  return (
    <Stack>
      <ApiErrorAlert error={impact.error} />
      {!i ? (
        !impact.error && <Skeleton h={100} aria-label="Loading what deleting removes" />
      ) : (
        <>
          <Text size="sm">Deleting the domain removes:</Text>
          <List size="sm" aria-label="What deleting removes">
            <List.Item>
              {i.total_inboxes} {i.total_inboxes === 1 ? "inbox" : "inboxes"} ({i.active_inboxes} active) with {i.total_emails}{" "}
              {i.total_emails === 1 ? "email" : "emails"}
            </List.Item>
            <List.Item>
              {i.assignments.length} team {i.assignments.length === 1 ? "assignment" : "assignments"}
              {i.assignments.length > 0 &&
                `: ${i.assignments.map((a) => `${a.team_name} (${a.access_level.replace("_", " ")})`).join(", ")}`}
            </List.Item>
            <List.Item>
              {i.webhooks_affected} {i.webhooks_affected === 1 ? "webhook stops" : "webhooks stop"} hearing of it
            </List.Item>
          </List>
          {i.active_inboxes > 0 && (
            <Switch
              label={`Delete it although ${i.active_inboxes} ${i.active_inboxes === 1 ? "inbox is" : "inboxes are"} active`}
              checked={force}
              onChange={(e) => setForce(e.currentTarget.checked)}
            />
          )}
        </>
      )}
      <ApiErrorAlert error={del.error} />
      <DialogActions
        confirmLabel="Delete domain"
        color="red.9"
        disabled={!i || (i.active_inboxes > 0 && !force)}
        loading={del.isPending}
        onConfirm={() => del.mutate(force)}
        onCancel={onClose}
      />
    </Stack>
  );
}
