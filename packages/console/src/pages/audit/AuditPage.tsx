import { Badge, Center, Group, Loader, SegmentedControl, Skeleton, Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { IconListSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { components } from "@burnbox/sdk";
import { NotAllowed, useIsSystemAdmin, useOrgPermissions } from "../../api/permissions";
import { useWorkspace } from "../../api/workspace";
import { EmptyState, PageHeader, Time, useListParams, TableScroll, ListView } from "../../components";
import { AuditFiltersForm } from "./AuditFiltersForm";
import { EntryDetails } from "./EntryDetails";
import { ExportMenu } from "./ExportMenu";
import { actionLabel, actorLabel, agentLabel, apiFilters, AUDIT_FILTERS, targetLabel, type AuditFilters } from "./format";
import { useAuditEntries, type AuditScope } from "./api";

export type AuditEntry = components["schemas"]["AuditEntry"];

const SEVERITY_COLOR: Record<AuditEntry["severity"], string> = { info: "gray", warning: "yellow", critical: "red" };

/** The audit log of the header's org, or (for a system admin, `?scope=platform`) of the whole platform. */
export default function AuditPage() {
  const { org, isLoading } = useWorkspace();
  const isSystemAdmin = useIsSystemAdmin();
  const perms = useOrgPermissions(org?.id);
  const [params, setParams] = useSearchParams();
  const platform = isSystemAdmin && params.get("scope") === "platform";

  const setScope = (scope: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (scope === "platform") next.set("scope", "platform");
      else next.delete("scope");
      next.delete("page");
      return next;
    });

  const header = (
    <PageHeader
      title="Audit log"
      description={
        platform
          ? "Every change on the platform, newest first: who made it, what it was, on what, when and from where."
          : "Every change in the organization, newest first: who made it, what it was, on what, when and from where."
      }
    />
  );
  const scopeSwitch = isSystemAdmin && (
    <SegmentedControl
      mb="md"
      aria-label="Whose audit log"
      value={platform ? "platform" : "org"}
      onChange={setScope}
      data={[
        { value: "org", label: org ? `Organization: ${org.name}` : "Organization", disabled: !org },
        { value: "platform", label: "Whole platform" },
      ]}
    />
  );

  if (platform)
    return (
      <>
        {header}
        {scopeSwitch}
        <AuditLog scope={{ kind: "platform" }} canExport={false} />
      </>
    );
  if (!org)
    return (
      <>
        {header}
        {scopeSwitch}
        {isLoading ? (
          <Center py="xl">
            <Loader aria-label="Loading" />
          </Center>
        ) : (
          <EmptyState title="No organization yet" icon={<IconListSearch size={28} stroke={1.5} />}>
            The audit log belongs to an organization. Create one or ask to be added, then choose it in the header.
          </EmptyState>
        )}
      </>
    );
  if (perms.isLoading)
    return (
      <>
        {header}
        <Skeleton h={200} aria-label="Loading your permissions" />
      </>
    );
  return (
    <>
      {header}
      {scopeSwitch}
      {perms.can("org.audit.view") ? (
        <AuditLog scope={{ kind: "org", orgId: org.id, orgName: org.name }} canExport={perms.can("org.audit.export")} />
      ) : (
        <NotAllowed>
          Your role in {org.name} does not include the audit log (org.audit.view). Owners and admins of the organization can read it.
        </NotAllowed>
      )}
    </>
  );
}

type Scope = AuditScope;

function AuditLog({ scope, canExport }: { scope: Scope; canExport: boolean }) {
  const list = useListParams({ filters: AUDIT_FILTERS, perPage: 25 });
  const [, setParams] = useSearchParams();
  const [details, setDetails] = useState<AuditEntry | null>(null);
  const filters = apiFilters(list.filters);
  const q = useAuditEntries({ scope, page: list.page, perPage: list.perPage, filters }, { placeholderData: (prev) => prev });

  /** Replaces every filter at once (one history entry), back to page 1. */
  const applyFilters = (next: AuditFilters) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      for (const name of AUDIT_FILTERS) {
        const v = next[name];
        if (v) out.set(name, v);
        else out.delete(name);
      }
      out.delete("page");
      return out;
    });
  const narrow = (name: keyof AuditFilters, value: string) => applyFilters({ ...filters, [name]: value });
  const active = Object.keys(filters).length;

  return (
    <Stack gap="md">
      <AuditFiltersForm
        // a new form when the URL's filters change (a link, the back button, a click on a row's actor)
        key={JSON.stringify(filters)}
        filters={filters}
        onApply={applyFilters}
        actions={canExport && scope.kind === "org" ? <ExportMenu orgId={scope.orgId} filters={filters} /> : undefined}
      />
      {scope.kind === "org" && !canExport && (
        <Text size="sm" c="dimmed">
          Exporting the log needs the permission org.audit.export, which your role does not include.
        </Text>
      )}
      {scope.kind === "platform" && (
        <Text size="sm" c="dimmed">
          Exports are made per organization: switch to an organization to download its log.
        </Text>
      )}
      <ListView
        query={q}
        loading={{ label: "Loading the audit log", height: 240 }}
        empty={
          <EmptyState title={active ? "No entries match these filters" : "No entries yet"} icon={<IconListSearch size={28} stroke={1.5} />}>
            {active
              ? "Widen the dates or clear a filter to see more."
              : "Changes made in the console or through the API appear here as they happen: sign-ins, members, teams, inboxes, keys and more."}
          </EmptyState>
        }
        pagination={{ params: list, label: "Audit log pages" }}
      >
        {(rows, page) => (
          <>
            <Text size="sm" c="dimmed" role="status">
              {active === 0
                ? `${page.total} ${page.total === 1 ? "entry" : "entries"} in all.`
                : `${page.total === 1 ? "1 entry matches" : `${page.total} entries match`} ${active === 1 ? "this filter" : `these ${active} filters`}.`}
            </Text>
            <TableScroll label="Audit entries" minWidth={900}>
              <Table striped highlightOnHover verticalSpacing="xs" aria-label="Audit entries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>What</Table.Th>
                    <Table.Th>Target</Table.Th>
                    <Table.Th>From where</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td style={{ whiteSpace: "nowrap" }}>
                        <Time value={e.created_at} mode="absolute" />
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={0}>
                          {e.actor_email ? (
                            <UnstyledButton
                              fz="sm"
                              onClick={() => narrow("actor_email", e.actor_email!)}
                              aria-label={`Only entries by ${e.actor_email}`}
                              title="Only this actor's entries"
                            >
                              {e.actor_email}
                            </UnstyledButton>
                          ) : (
                            <Text size="sm">{actorLabel(e)}</Text>
                          )}
                          {e.actor_type !== "user" && (
                            <Text size="xs" c="dimmed">
                              {e.actor_type === "api_key" ? "through an API key" : "automatic"}
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <UnstyledButton
                            fz="sm"
                            fw={500}
                            onClick={() => setDetails(e)}
                            aria-label={`Details: ${actionLabel(e.action)}`}
                            style={{ textDecoration: "underline dotted" }}
                          >
                            {actionLabel(e.action)}
                          </UnstyledButton>
                          {e.severity !== "info" && (
                            <Badge size="xs" color={SEVERITY_COLOR[e.severity]} variant="light">
                              {e.severity}
                            </Badge>
                          )}
                        </Group>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {e.action}
                        </Text>
                      </Table.Td>
                      <Table.Td maw={280}>
                        <Text size="sm" truncate="end" title={targetLabel(e)}>
                          {targetLabel(e)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {e.ip_address ?? "—"}
                        </Text>
                        {e.user_agent && (
                          <Text size="xs" c="dimmed" title={e.user_agent}>
                            {agentLabel(e.user_agent)}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          </>
        )}
      </ListView>
      <EntryDetails entry={details} onClose={() => setDetails(null)} />
    </Stack>
  );
}
