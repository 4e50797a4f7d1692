import { Badge, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconSend } from "@tabler/icons-react";
import { EmptyState, ListView, Time, useListParams } from "../../../components";
import { useOutbound, type OutboundMessage } from "../api";

const STATUS_COLOR: Record<OutboundMessage["status"], string> = { queued: "blue.8", sent: "teal.9", failed: "red.9" };
const KIND_LABEL: Record<OutboundMessage["kind"], string> = { release: "Release", reply: "Reply", send: "New message" };

/** The inbox page's "Sent mail": what the inbox sent, replied or released, newest first (`GET /inboxes/{id}/outbound`). */
export function OutboundLog({ inboxId }: { inboxId: string }) {
  // the mail list above has `?page=`: this list's page is `?sent_page=`
  const list = useListParams({ pageParam: "sent_page" });
  const q = useOutbound(
    { inboxId, page: list.page },
    { refetchInterval: (query) => (query.state.data?.data.some((m) => m.status === "queued") ? 3000 : false) },
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="outbound-log-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="outbound-log-title">
          Sent mail
        </Title>
        <ListView
          query={q}
          loading={{ label: "Loading sent mail", height: 80 }}
          empty={
            <EmptyState title="Nothing sent yet" icon={<IconSend size={28} stroke={1.5} />}>
              Replies, releases and new messages from this inbox are listed here with how their delivery went.
            </EmptyState>
          }
          table={{ label: "Sent mail, scrolls sideways", minWidth: 760 }}
          pagination={{ params: list, label: "Sent mail pages" }}
        >
          {(rows) => (
            <Table verticalSpacing="xs" fz="sm" aria-label="Sent mail">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Subject</Table.Th>
                  <Table.Th miw={100}>Status</Table.Th>
                  <Table.Th>Last reply</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((m) => (
                  <Table.Tr key={m.id} data-testid="outbound-row" data-status={m.status} style={{ verticalAlign: "top" }}>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>
                      <Time value={m.at} />
                    </Table.Td>
                    <Table.Td>{KIND_LABEL[m.kind]}</Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{m.to.join(", ")}</Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{m.subject || "(no subject)"}</Table.Td>
                    <Table.Td style={{ minWidth: 100 }}>
                      <Stack gap={2} align="flex-start">
                        <Badge variant="filled" color={STATUS_COLOR[m.status]} tt="none" style={{ flex: "none" }}>
                          {m.status}
                        </Badge>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                          {m.attempts} {m.attempts === 1 ? "attempt" : "attempts"}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>
                      {m.last_reply ?? (
                        <Text span size="xs" c="dimmed">
                          none yet
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </ListView>
      </Stack>
    </Paper>
  );
}
