import { Center, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconChartBar } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { NotAllowed, useOrgPermissions } from "../../api/permissions";
import { useWorkspace } from "../../api/workspace";
import { ApiErrorAlert, EmptyState, PageHeader } from "../../components";
import { Bars, ChartFigure, DayLine } from "./charts";
import {
  DAY_RANGES,
  daySeriesSummary,
  domainSummary,
  formatBytes,
  formatCount,
  hourLabel,
  parseDays,
  peakHoursSummary,
  rangeLabel,
  shortDate,
  storageSummary,
} from "./format";
import {
  useOrgAnalytics,
  useOrgEmailsPerDay,
  useOrgInsights,
  useOrgDomains,
  useDomainSeries,
  useTeamAnalytics,
  useTeamEmailsPerDay,
  useTeamInsights,
} from "./api";

const STALE = 10_000;

/**
 * The figures of the header's org (`?scope=org`, needs org.analytics.view) or team (`?scope=team`,
 * team.analytics.view), over `?days=` (7, 30, 90 or 365), and one domain's series (`?domain=`).
 */
export default function AnalyticsPage() {
  const { org, team, isLoading } = useWorkspace();
  const perms = useOrgPermissions(org?.id);
  const [params, setParams] = useSearchParams();
  const days = parseDays(params.get("days"));
  const canOrg = perms.can("org.analytics.view");
  const wanted = params.get("scope");
  const scope: "org" | "team" = wanted === "team" || (wanted !== "org" && !canOrg && team) ? "team" : "org";

  const set = (name: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const header = (
    <PageHeader title="Analytics" description="Mail and inboxes over time. Days are UTC dates; figures arrive within a few seconds." />
  );
  if (!org)
    return (
      <>
        {header}
        {isLoading ? (
          <Center py="xl">
            <Loader aria-label="Loading" />
          </Center>
        ) : (
          <EmptyState title="No organization yet" icon={<IconChartBar size={28} stroke={1.5} />}>
            Analytics belong to an organization and its teams. Create one or ask to be added, then choose it in the header.
          </EmptyState>
        )}
      </>
    );

  return (
    <>
      {header}
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="Whose figures"
          value={scope}
          onChange={(v) => set("scope", v)}
          data={[
            { value: "org", label: `Organization: ${org.name}` },
            { value: "team", label: team ? `Team: ${team.name}` : "Team", disabled: !team },
          ]}
        />
        <SegmentedControl
          aria-label="Day range"
          value={String(days)}
          onChange={(v) => set("days", v === "30" ? null : v)}
          data={DAY_RANGES.map((d) => ({ value: String(d), label: rangeLabel(d) }))}
        />
      </Group>
      {scope === "team" && team ? (
        <TeamAnalytics orgId={org.id} teamId={team.id} teamName={team.name} days={days} />
      ) : perms.isLoading ? (
        <Skeleton h={200} aria-label="Loading your permissions" />
      ) : canOrg ? (
        <OrgAnalytics orgId={org.id} days={days} domain={params.get("domain")} onDomain={(d) => set("domain", d)} />
      ) : (
        <NotAllowed>
          Your role in {org.name} does not include the organization's analytics (org.analytics.view). Your team's figures are under "Team".
        </NotAllowed>
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

const dayColumns = (label: string) => [
  { label: "Date (UTC)", value: (r: { date: string }) => r.date },
  { label, value: (r: { count: number }) => formatCount(r.count), numeric: true },
];
const hourColumns = [
  { label: "Hour (UTC)", value: (r: { hour: number }) => `${hourLabel(r.hour)}–${hourLabel((r.hour + 1) % 24)}` },
  { label: "Emails", value: (r: { count: number }) => formatCount(r.count), numeric: true },
];
const storageColumns = [
  { label: "Date (UTC)", value: (r: { date: string }) => r.date },
  { label: "Mail stored", value: (r: { storage_bytes: number }) => formatBytes(r.storage_bytes), numeric: true },
];
const domainColumns = [
  { label: "Domain", value: (r: { domain: string }) => r.domain },
  { label: "Emails", value: (r: { count: number }) => formatCount(r.count), numeric: true },
];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function OrgAnalytics({
  orgId,
  days,
  domain,
  onDomain,
}: {
  orgId: string;
  days: number;
  domain: string | null;
  onDomain: (d: string | null) => void;
}) {
  const path = { orgId };
  const totals = useOrgAnalytics(
    { orgId, path },
    {
      staleTime: STALE,
    },
  );
  const emails = useOrgEmailsPerDay({ orgId, days, path }, { staleTime: STALE, placeholderData: (p) => p });
  const insights = useOrgInsights({ orgId, days, path }, { staleTime: STALE, placeholderData: (p) => p });
  const domains = useOrgDomains({ orgId, path }, { staleTime: 60_000 });
  const domainNames = (domains.data?.data ?? []).map((d) => d.domain_name);
  const chosen = domain && domainNames.includes(domain) ? domain : domainNames[0];
  const series = useDomainSeries(
    { orgId, chosen, days, path },
    { staleTime: STALE, enabled: chosen !== undefined, placeholderData: (p) => p },
  );
  const t = totals.data;

  return (
    <Stack gap="lg">
      <ApiErrorAlert error={totals.error ?? emails.error ?? insights.error} />
      <Section title="Totals">
        <Loaded query={totals} label="Loading the totals" h={90}>
          {(t) => (
            <TotalsGrid
              totals={t}
              more={[
                ["Storage used", formatBytes(t.storage_used_bytes)],
                ["Domains", formatCount(t.total_domains)],
                ["Teams", formatCount(t.total_teams)],
                ["Members", formatCount(t.total_members)],
              ]}
            />
          )}
        </Loaded>
        {t && t.top_sender_domains.length > 0 && (
          <Paper withBorder radius="md" p="sm">
            <Table fz="sm" aria-label="Top sender domains (all time)">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Top sender domains (all time)</Table.Th>
                  <Table.Th ta="right">Emails</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {t.top_sender_domains.map((d) => (
                  <Table.Tr key={d.domain}>
                    <Table.Td>{d.domain}</Table.Td>
                    <Table.Td ta="right">{formatCount(d.count)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
      </Section>
      <Section title={`The last ${rangeLabel(days)}`}>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Loaded query={emails} label="Loading emails per day">
            {(e) => <EmailsPerDay days={e.data} />}
          </Loaded>
          <Loaded query={insights} label="Loading insights">
            {(i) => (
              <>
                <ChartFigure
                  title="Emails per domain"
                  summary={domainSummary(i.domain_breakdown)}
                  rows={i.domain_breakdown}
                  columns={domainColumns}
                  height={Math.max(120, i.domain_breakdown.length * 36)}
                >
                  <Bars data={i.domain_breakdown} x="domain" y="count" name="Emails" vertical />
                </ChartFigure>
                <InsightCharts insights={i} />
              </>
            )}
          </Loaded>
          {chosen === undefined ? null : (
            <Stack gap="xs">
              <Select
                label="Domain for the series below"
                data={domainNames}
                value={chosen}
                onChange={(v) => onDomain(v)}
                allowDeselect={false}
                searchable
                maw={360}
              />
              <ApiErrorAlert error={series.error} />
              {series.data && (
                <ChartFigure
                  title={`Emails per day on ${series.data.domain}`}
                  summary={daySeriesSummary(series.data.data, "email", "emails")}
                  rows={series.data.data}
                  columns={dayColumns("Emails")}
                >
                  <DayLine data={series.data.data} x="date" y="count" name="Emails" tickFormatter={shortDate} />
                </ChartFigure>
              )}
            </Stack>
          )}
        </SimpleGrid>
      </Section>
    </Stack>
  );
}

/** A query's charts once its data is in, a placeholder while it loads; nothing after an error (the page's alert says it). */
function Loaded<T>({
  query,
  label,
  h = 300,
  children,
}: {
  query: { data?: T; error: unknown };
  label: string;
  /** the placeholder's height */
  h?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  return query.error ? null : <Skeleton h={h} aria-label={label} />;
}

/** The totals both scopes have (mail, inboxes made, inboxes active), then the scope's own (`more`: label and value). */
function TotalsGrid({
  totals,
  more,
}: {
  totals: { total_emails: number; total_inboxes: number; active_inboxes: number };
  more: Array<[label: string, value: string]>;
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      <Stat label="Emails received" value={formatCount(totals.total_emails)} />
      <Stat label="Inboxes made" value={formatCount(totals.total_inboxes)} />
      <Stat label="Active inboxes" value={formatCount(totals.active_inboxes)} />
      {more.map(([label, value]) => (
        <Stat key={label} label={label} value={value} />
      ))}
    </SimpleGrid>
  );
}

/** Emails received per day in the range (both scopes). */
function EmailsPerDay({ days }: { days: Array<{ date: string; count: number }> }) {
  return (
    <ChartFigure title="Emails per day" summary={daySeriesSummary(days, "email", "emails")} rows={days} columns={dayColumns("Emails")}>
      <Bars data={days} x="date" y="count" name="Emails" tickFormatter={shortDate} />
    </ChartFigure>
  );
}

/** The insights both scopes have: inboxes per day, mail stored per day, peak hours. */
function InsightCharts({
  insights,
}: {
  insights: {
    inboxes_per_day: Array<{ date: string; count: number }>;
    peak_hours: Array<{ hour: number; count: number }>;
    storage_per_day: Array<{ date: string; storage_bytes: number }>;
  };
}) {
  return (
    <>
      <ChartFigure
        title="Inboxes made per day"
        summary={daySeriesSummary(insights.inboxes_per_day, "inbox", "inboxes")}
        rows={insights.inboxes_per_day}
        columns={dayColumns("Inboxes")}
      >
        <Bars data={insights.inboxes_per_day} x="date" y="count" name="Inboxes" tickFormatter={shortDate} />
      </ChartFigure>
      <ChartFigure
        title="Busiest hours (UTC)"
        summary={peakHoursSummary(insights.peak_hours)}
        rows={insights.peak_hours}
        columns={hourColumns}
      >
        <Bars data={insights.peak_hours} x="hour" y="count" name="Emails" tickFormatter={(h) => hourLabel(Number(h))} />
      </ChartFigure>
      <ChartFigure
        title="Mail stored per day"
        summary={storageSummary(insights.storage_per_day)}
        rows={insights.storage_per_day}
        columns={storageColumns}
      >
        <Bars
          data={insights.storage_per_day}
          x="date"
          y="storage_bytes"
          name="Mail stored"
          tickFormatter={shortDate}
          valueFormatter={formatBytes}
        />
      </ChartFigure>
    </>
  );
}

function TeamAnalytics({ orgId, teamId, teamName, days }: { orgId: string; teamId: string; teamName: string; days: number }) {
  const path = { orgId, teamId };
  const totals = useTeamAnalytics(
    { teamId, path },
    {
      staleTime: STALE,
    },
  );
  const emails = useTeamEmailsPerDay({ teamId, days, path }, { staleTime: STALE, placeholderData: (p) => p });
  const insights = useTeamInsights({ teamId, days, path }, { staleTime: STALE, placeholderData: (p) => p });
  return (
    <Stack gap="lg">
      <ApiErrorAlert error={totals.error ?? emails.error ?? insights.error} />
      <Section title={`Totals of ${teamName}`}>
        <Loaded query={totals} label="Loading the totals" h={90}>
          {(t) => <TotalsGrid totals={t} more={[["Members", formatCount(t.total_members)]]} />}
        </Loaded>
      </Section>
      <Section title={`The last ${rangeLabel(days)}`}>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Loaded query={emails} label="Loading emails per day">
            {(e) => <EmailsPerDay days={e.data} />}
          </Loaded>
          <Loaded query={insights} label="Loading insights">
            {(i) => <InsightCharts insights={i} />}
          </Loaded>
        </SimpleGrid>
      </Section>
    </Stack>
  );
}
