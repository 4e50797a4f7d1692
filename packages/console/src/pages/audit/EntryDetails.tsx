import { Badge, Code, Modal, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Time } from "../../components";
import type { AuditEntry } from "./AuditPage";
import { actionLabel, actorLabel, categoryLabel } from "./format";

/** Every field of one entry, its metadata as JSON. */
export function EntryDetails({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const rows: Array<[string, ReactNode]> = entry
    ? [
        ["Action", `${actionLabel(entry.action)} (${entry.action})`],
        ["Category", categoryLabel(entry.category)],
        [
          "Severity",
          <Badge key="s" variant="light" color={entry.severity === "critical" ? "red" : entry.severity === "warning" ? "yellow" : "gray"}>
            {entry.severity}
          </Badge>,
        ],
        ["When", <Time key="t" value={entry.created_at} mode="absolute" />],
        ["Who", `${actorLabel(entry)} (${entry.actor_type.replace("_", " ")})`],
        ["Actor id", entry.actor_id ?? "—"],
        ["Target", `${entry.resource_type}${entry.resource_name ? `: ${entry.resource_name}` : ""}`],
        ["Target id", entry.resource_id ?? "—"],
        ["IP address", entry.ip_address ?? "—"],
        ["User agent", entry.user_agent ?? "—"],
        ["Organization id", entry.org_id ?? "— (platform)"],
        ["Entry id", entry.id],
      ]
    : [];
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Audit entry" size="lg" closeButtonProps={{ "aria-label": "Close" }}>
      {entry && (
        <>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={150}>{label}</Table.Th>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={500} size="sm" mt="md" mb={4}>
            Details
          </Text>
          <Code block aria-label="Entry details as JSON">
            {JSON.stringify(entry.metadata, null, 2)}
          </Code>
        </>
      )}
    </Modal>
  );
}
