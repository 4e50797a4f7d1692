import { Center, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconChartBar } from "@tabler/icons-react";
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
        {t ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Stat label="Emails received" value={formatCount(t.total_emails)} />
            <Stat label="Inboxes made" value={formatCount(t.total_inboxes)} />
            <Stat label="Active inboxes" value={formatCount(t.active_inboxes)} />
            <Stat label="Storage used" value={formatBytes(t.storage_used_bytes)} />
            <Stat label="Domains" value={formatCount(t.total_domains)} />
            <Stat label="Teams" value={formatCount(t.total_teams)} />
            <Stat label="Members" value={formatCount(t.total_members)} />
          </SimpleGrid>
        ) : (
          !totals.error && <Skeleton h={90} aria-label="Loading the totals" />
        )}
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
          {emails.data ? (
            <ChartFigure
              title="Emails per day"
              summary={daySeriesSummary(emails.data.data, "email", "emails")}
              rows={emails.data.data}
              columns={dayColumns("Emails")}
            >
              <Bars data={emails.data.data} x="date" y="count" name="Emails" tickFormatter={shortDate} />
            </ChartFigure>
          ) : (
            !emails.error && <Skeleton h={300} aria-label="Loading emails per day" />
          )}
          {insights.data ? (
            <>
              <ChartFigure
                title="Emails per domain"
                summary={domainSummary(insights.data.domain_breakdown)}
                rows={insights.data.domain_breakdown}
                columns={domainColumns}
                height={Math.max(120, insights.data.domain_breakdown.length * 36)}
              >
                <Bars data={insights.data.domain_breakdown} x="domain" y="count" name="Emails" vertical />
              </ChartFigure>
              <InsightCharts insights={insights.data} />
            </>
          ) : (
            !insights.error && <Skeleton h={300} aria-label="Loading insights" />
          )}
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
  const t = totals.data;
  return (
    <Stack gap="lg">
      <ApiErrorAlert error={totals.error ?? emails.error ?? insights.error} />
      <Section title={`Totals of ${teamName}`}>
        {t ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Stat label="Emails received" value={formatCount(t.total_emails)} />
            <Stat label="Inboxes made" value={formatCount(t.total_inboxes)} />
            <Stat label="Active inboxes" value={formatCount(t.active_inboxes)} />
            <Stat label="Members" value={formatCount(t.total_members)} />
          </SimpleGrid>
        ) : (
          !totals.error && <Skeleton h={90} aria-label="Loading the totals" />
        )}
      </Section>
      <Section title={`The last ${rangeLabel(days)}`}>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {emails.data ? (
            <ChartFigure
              title="Emails per day"
              summary={daySeriesSummary(emails.data.data, "email", "emails")}
              rows={emails.data.data}
              columns={dayColumns("Emails")}
            >
              <Bars data={emails.data.data} x="date" y="count" name="Emails" tickFormatter={shortDate} />
            </ChartFigure>
          ) : (
            !emails.error && <Skeleton h={300} aria-label="Loading emails per day" />
          )}
          {insights.data ? (
            <InsightCharts insights={insights.data} />
          ) : (
            !insights.error && <Skeleton h={300} aria-label="Loading insights" />
          )}
        </SimpleGrid>
      </Section>
    </Stack>
  );
}
