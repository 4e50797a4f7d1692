import { Code, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { CopyButton, TableScroll } from "../../components";
import { type Domain } from "./status";
import { ListTable } from "../../components/ListTable";

/** The records to create, exactly as the verification reads them. */
export function Records({ domain }: { domain: Domain }) {
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
        <ListTable verticalSpacing="xs" columns={["Type", "Name", "Value", "Note"]}>
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
        </ListTable>
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
