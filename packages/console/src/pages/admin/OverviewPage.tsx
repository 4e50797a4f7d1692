import { Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { ApiErrorAlert, PageHeader, Time, TableScroll } from "../../components";
import { AdminGate } from "./AdminGate";
import { formatBytes, formatUptime, type AdminStats } from "./stats";
import type { LiveState } from "../../api/live-socket";
import { useAdminStats } from "./useAdminStats";
import { useAdminHealth, useVersion } from "./api";
import { ListTable } from "../../components/ListTable";

const TITLE = "Platform";

export default function OverviewPage() {
  return (
    <AdminGate title={TITLE}>
      <Overview />
    </AdminGate>
  );
}

function Overview() {
  return (
    <>
      <PageHeader title={TITLE} description="What the whole installation holds right now, the health of every process, and the version." />
      <Stack gap="xl">
        <LiveStats />
        <Health />
        <Version />
      </Stack>
    </>
  );
}

const STAT_LABELS: { key: keyof AdminStats; label: string; format?: (n: number) => string }[] = [
  { key: "total_emails", label: "Emails received" },
  { key: "active_inboxes", label: "Active inboxes" },
  { key: "total_users", label: "Users" },
  { key: "total_teams", label: "Teams" },
  { key: "total_domains", label: "Domains" },
  { key: "storage_used_bytes", label: "Storage used", format: formatBytes },
];

const STATE_TEXT: Record<LiveState, { label: string; color: string }> = {
  connecting: { label: "Connecting", color: "gray" },
  live: { label: "Live", color: "green" },
  reconnecting: { label: "Reconnecting", color: "yellow" },
};

function LiveStats() {
  const { stats, at, state } = useAdminStats();
  const badge = STATE_TEXT[state];
  return (
    <section aria-labelledby="admin-stats-heading">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h3" id="admin-stats-heading">
          Live statistics
        </Title>
        <Group gap="xs">
          <Badge color={badge.color} variant="light" role="status" aria-label={`Statistics stream: ${badge.label}`}>
            {badge.label}
          </Badge>
          {at && (
            <Text size="sm" c="dimmed">
              updated <Time value={at.toISOString()} />
            </Text>
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Pushed by the server at once and every 10 seconds.
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {STAT_LABELS.map(({ key, label, format }) => (
          <Card key={key} withBorder padding="md" role="group" aria-label={label}>
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Text fz={28} fw={700} data-testid={`stat-${key}`}>
              {stats ? (format ?? ((n: number) => n.toLocaleString("en")))(stats[key]) : "…"}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}

function Health() {
  const q = useAdminHealth();
  const services = Object.entries(q.data?.services ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-labelledby="admin-health-heading">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h3" id="admin-health-heading">
          Health
        </Title>
        {q.data && (
          <Group gap="xs">
            <Badge color={q.data.status === "ok" ? "green" : "red"} variant="light">
              {q.data.status === "ok" ? "All healthy" : "Degraded"}
            </Badge>
            <Text size="sm" c="dimmed">
              up {formatUptime(q.data.uptime_s)}
            </Text>
          </Group>
        )}
      </Group>
      <ApiErrorAlert error={q.error} />
      {q.isPending ? (
        <Center py="md">
          <Loader aria-label="Loading health" />
        </Center>
      ) : (
        q.data && (
          <TableScroll label="Health" minWidth={420}>
            <ListTable
              striped
              verticalSpacing="xs"
              aria-labelledby="admin-health-heading"
              columns={["Process or dependency", "Status", "Latency", "Problem"]}
            >
              {services.map(([name, check]) => (
                <Table.Tr key={name}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>
                    <Badge color={check.status === "ok" ? "green" : "red"} variant="light">
                      {check.status === "ok" ? "OK" : "Error"}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{check.latency_ms} ms</Table.Td>
                  <Table.Td>{check.error ?? "—"}</Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          </TableScroll>
        )
      )}
    </section>
  );
}

function Version() {
  const q = useVersion({ staleTime: 300_000 });
  return (
    <section aria-labelledby="admin-version-heading">
      <Title order={2} size="h3" id="admin-version-heading" mb="sm">
        Version
      </Title>
      <ApiErrorAlert error={q.error} />
      {q.data && (
        <Text>
          BurnBox {q.data.version}
          {q.data.commit && <> · commit {q.data.commit.slice(0, 12)}</>}
          {q.data.build_date && <> · built {q.data.build_date}</>}
        </Text>
      )}
    </section>
  );
}
