import { Paper, Table, Text, Title } from "@mantine/core";
import { ListView, Time, useListParams } from "../../components";
import { CheckResult } from "./status";
import { useVerificationHistory } from "./api";
import { ListTable } from "../../components/ListTable";

const TRIGGER: Record<string, string> = { create: "when added", manual: "verify now", worker: "scheduled check" };

export function History({ orgId, domainId }: { orgId: string; domainId: string }) {
  const list = useListParams({ pageParam: "history_page", perPage: 10 });
  const q = useVerificationHistory({ orgId, domainId, list, listPerPage: list.perPage });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dns-history">
      <Title order={2} size="h4" id="dns-history" mb="sm">
        Verification history
      </Title>
      <ListView
        query={q}
        loading={{ label: "Loading the history", height: 80 }}
        empty={
          <Text size="sm" c="dimmed">
            No checks yet.
          </Text>
        }
        table={{ label: "Verification history", minWidth: 600 }}
        pagination={{ params: list, label: "History pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            verticalSpacing="xs"
            aria-label="Verification history"
            columns={["Checked", "Trigger", "MX", "TXT", "SPF", "Error"]}
          >
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
          </ListTable>
        )}
      </ListView>
    </Paper>
  );
}
