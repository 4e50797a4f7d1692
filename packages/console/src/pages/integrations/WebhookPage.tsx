import { Badge, Button, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconPencil, IconRefresh, IconSend } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import type { components } from "@burnbox/sdk";
import { ApiErrorAlert, CopyButton, EmptyState, ListView, PageHeader, Time, useClampedPage, useListParams, Notice } from "../../components";
import { teamKeys } from "./keys";
import { TeamGate, type TeamScope } from "./TeamGate";
import { WebhookFormModal } from "./WebhookFormModal";
import { useTeamWebhooks, useWebhookDeliveries, useWebhookStats, useRedeliver } from "./api";
import { ListTable } from "../../components/ListTable";

type Delivery = components["schemas"]["WebhookDelivery"];
type Stats = components["schemas"]["WebhookStats"];

export default function WebhookPage() {
  const { webhookId = "" } = useParams();
  return <TeamGate title="Webhook">{(scope) => <WebhookDetail scope={scope} webhookId={webhookId} />}</TeamGate>;
}

function WebhookDetail({ scope, webhookId }: { scope: TeamScope; webhookId: string }) {
  const path = { orgId: scope.orgId, teamId: scope.teamId, webhookId };
  // the API has no single-webhook read: the team's list (at most 100 per page) holds it
  const hooks = useTeamWebhooks({ scopeTeamId: scope.teamId, scopeOrgId: scope.orgId });
  const hook = hooks.data?.data.find((h) => h.id === webhookId);
  const list = useListParams();
  const log = useWebhookDeliveries(
    { scopeTeamId: scope.teamId, webhookId, list, listPerPage: list.perPage, path },
    { refetchInterval: 5000 },
  );
  const stats = useWebhookStats({ scopeTeamId: scope.teamId, webhookId, path }, { refetchInterval: 5000 });
  const [queued, setQueued] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const redeliver = useRedeliver(
    { path },
    {
      invalidates: [teamKeys.webhook(scope.teamId, webhookId)],
      onSuccess: (r) => setQueued(r.delivery_id),
      onMutate: () => setQueued(null),
    },
  );

  useClampedPage(list, log.data);

  if (hooks.data && !hook)
    return (
      <>
        <PageHeader title="Webhook" />
        <EmptyState
          title="Webhook not found"
          action={
            <Button component={Link} to="/webhooks">
              All webhooks
            </Button>
          }
        >
          It was deleted, or belongs to another team than the one chosen in the header.
        </EmptyState>
      </>
    );

  return (
    <>
      <PageHeader
        title="Webhook"
        description={
          hook ? (
            <Text span style={{ wordBreak: "break-all" }}>
              {hook.url}
            </Text>
          ) : undefined
        }
        actions={
          <>
            <Button component={Link} to="/webhooks" variant="default" leftSection={<IconArrowLeft size={16} />}>
              All webhooks
            </Button>
            <Button variant="light" leftSection={<IconPencil size={16} />} disabled={!hook} onClick={() => setEditing(true)}>
              Edit
            </Button>
          </>
        }
      />
      {hook && (
        <Group gap="xs" mb="md">
          <Badge color={hook.active ? "teal" : "gray"} variant="dot">
            {hook.active ? "Enabled" : "Disabled"}
          </Badge>
          {hook.events.map((ev) => (
            <Badge key={ev} variant="outline" color="gray" tt="none">
              {ev}
            </Badge>
          ))}
          <Text size="sm" c="dimmed">
            Failure count: {hook.failure_count}
          </Text>
        </Group>
      )}
      <ApiErrorAlert error={hooks.error} />

      <Title order={2} size="h4" mb="xs">
        Delivery health
      </Title>
      <ApiErrorAlert error={stats.error} />
      <StatsGrid stats={stats.data} />

      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h4">
          Delivery log
        </Title>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          loading={log.isFetching && !log.isPending}
          onClick={() => {
            void log.refetch();
            void stats.refetch();
          }}
        >
          Refresh
        </Button>
      </Group>
      {queued && (
        <Notice onClose={() => setQueued(null)} mb="sm">
          Delivery <Code>{queued}</Code> is queued again: its new attempts show in the log as they happen.
        </Notice>
      )}
      <ApiErrorAlert error={redeliver.error} title="Not redelivered" />
      <ListView
        query={log}
        loading={{ label: "Loading the delivery log", height: 160 }}
        empty={
          <EmptyState title="Nothing delivered yet">
            Every attempt shows here once one of the webhook's events happens: create an inbox or send a mail to one of the team's inboxes.
          </EmptyState>
        }
        table={{ label: "Deliveries", minWidth: 820 }}
        pagination={{ params: list, label: "Delivery log pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            verticalSpacing="xs"
            columns={[
              "When",
              "Event",
              "Delivery",
              { label: "Attempt", ta: "right" },
              "Status",
              { label: "Response time", ta: "right" },
              "Error",
              <Text key="redeliver" span size="sm" fw={700}>
                Redeliver
              </Text>,
            ]}
          >
            {rows.map((d) => (
              <DeliveryRow
                key={d.id}
                d={d}
                busy={redeliver.isPending && redeliver.variables === d.delivery_id}
                onRedeliver={() => redeliver.mutate(d.delivery_id)}
              />
            ))}
          </ListTable>
        )}
      </ListView>
      {hook && <WebhookFormModal scope={scope} opened={editing} webhook={hook} onClose={() => setEditing(false)} />}
    </>
  );
}

function DeliveryRow({ d, busy, onRedeliver }: { d: Delivery; busy: boolean; onRedeliver: () => void }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Time value={d.created_at} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {d.event}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          <Text size="sm" ff="monospace" title={d.delivery_id}>
            {d.delivery_id.slice(0, 8)}
          </Text>
          <CopyButton value={d.delivery_id} label={`Copy delivery id ${d.delivery_id.slice(0, 8)}`} />
        </Group>
      </Table.Td>
      <Table.Td ta="right">{d.attempt}</Table.Td>
      <Table.Td>
        <Badge color={d.success ? "teal" : "red"} variant="dot" tt="none">
          {d.success ? "Delivered" : "Failed"}
          {d.response_status !== null ? ` · ${d.response_status}` : ""}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">{d.response_time_ms} ms</Table.Td>
      <Table.Td maw={260}>
        <Text size="sm" c={d.error ? "red" : "dimmed"} style={{ wordBreak: "break-word" }}>
          {d.error ?? "—"}
        </Text>
      </Table.Td>
      <Table.Td>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconSend size={14} />}
          loading={busy}
          onClick={onRedeliver}
          aria-label={`Redeliver ${d.delivery_id.slice(0, 8)} (attempt ${d.attempt})`}
        >
          Redeliver
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function StatsGrid({ stats }: { stats: Stats | undefined }) {
  if (!stats) return <Skeleton h={80} aria-label="Loading delivery health" />;
  const items: [string, React.ReactNode][] = [
    ["Attempts", stats.total_deliveries],
    ["Delivered", stats.success_count],
    ["Failed", stats.failure_count],
    ["Success rate", `${stats.success_rate}%`],
    ["Avg response", `${stats.avg_response_time_ms} ms`],
    ["Last attempt", stats.last_delivery_at ? <Time value={stats.last_delivery_at} /> : "none yet"],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm">
      {items.map(([label, value]) => {
        const id = `stat-${label.toLowerCase().replace(/\W+/g, "-")}`;
        return (
          <Paper key={label} withBorder p="sm" radius="md" role="group" aria-labelledby={id}>
            <Stack gap={2}>
              <Text id={id} size="xs" c="dimmed" tt="uppercase" fw={600}>
                {label}
              </Text>
              <Text fw={700} size="lg">
                {value}
              </Text>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
