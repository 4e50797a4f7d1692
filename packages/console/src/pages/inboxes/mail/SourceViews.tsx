import { Badge, Button, Code, Group, Loader, Stack, Table, Text } from "@mantine/core";
import { useRawEmail, type Authentication } from "../api";
import { CopyButton, TableScroll } from "../../../components";
import { ApiError } from "../../../components";

/** The headers as received, one row each (repeated headers joined). */
export function HeadersView({ headers }: { headers: Record<string, string> }) {
  const rows = Object.entries(headers);
  if (rows.length === 0) return <Text c="dimmed">No headers were stored for this mail.</Text>;
  return (
    <TableScroll label="Headers" minWidth={320}>
      <Table striped withTableBorder verticalSpacing={4} fz="xs" layout="fixed" aria-label="Headers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">Header</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([name, value]) => (
            <Table.Tr key={name}>
              <Table.Td style={{ overflowWrap: "anywhere", verticalAlign: "top" }} fw={600}>
                {name}
              </Table.Td>
              <Table.Td style={{ overflowWrap: "anywhere", fontFamily: "var(--mantine-font-family-monospace)" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

const SHOWN = 512 * 1024;

/** The original message as received (`GET /emails/:id/raw`), with a download. */
export function RawView({ emailId, active }: { emailId: string; active: boolean }) {
  const raw = useRawEmail(emailId, active);
  if (raw.isLoading) return <Loader role="status" aria-label="Loading the source" />;
  if (raw.error) return <ApiError error={raw.error} title="The source could not be loaded" onRetry={() => void raw.refetch()} />;
  if (raw.data === undefined) return null;
  const text = raw.data;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "application/octet-stream" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${emailId}.eml`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button size="xs" variant="light" onClick={download}>
          Download .eml
        </Button>
        <CopyButton value={text} label="Copy the source" />
        {text.length > SHOWN ? (
          <Text size="xs" c="dimmed">
            Showing the first 512 KB; download it for the rest.
          </Text>
        ) : null}
      </Group>
      <Code
        block
        data-testid="raw-source"
        style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: "70vh", overflow: "auto" }}
        tabIndex={0}
      >
        {text.length > SHOWN ? text.slice(0, SHOWN) : text}
      </Code>
    </Stack>
  );
}

// dark shades: white text on them stays readable (AA) in both schemes
const RESULT_COLOR: Record<string, string> = {
  pass: "teal.9",
  fail: "red.9",
  softfail: "yellow.9",
  neutral: "gray.7",
  none: "gray.7",
  policy: "yellow.9",
  temperror: "orange.9",
  permerror: "orange.9",
};

function Verdict({ result }: { result: string | undefined }) {
  const r = result ?? "none";
  return (
    <Badge color={RESULT_COLOR[r] ?? "gray.7"} variant="filled" tt="none" data-result={r}>
      {r}
    </Badge>
  );
}

/** SPF, DKIM, DMARC and ARC verdicts (extensions section 3), shown when the email view carries them. */
export function AuthenticationView({ auth }: { auth: Authentication }) {
  return (
    <Table withTableBorder verticalSpacing={6} fz="sm" aria-label="Authentication results" data-testid="authentication">
      <Table.Tbody>
        <Table.Tr>
          <Table.Th scope="row">SPF</Table.Th>
          <Table.Td>
            <Verdict result={auth.spf?.result} />{" "}
            {auth.spf?.domain ? (
              <Text span size="xs">
                for {auth.spf.domain}
              </Text>
            ) : null}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">DKIM</Table.Th>
          <Table.Td>
            {auth.dkim && auth.dkim.length > 0 ? (
              <Stack gap={2}>
                {auth.dkim.map((d, i) => (
                  <div key={i}>
                    <Verdict result={d.result} />{" "}
                    <Text span size="xs">
                      {d.domain ?? "?"}
                      {d.selector ? ` (selector ${d.selector})` : ""}
                    </Text>
                  </div>
                ))}
              </Stack>
            ) : (
              <Text span size="xs" c="dimmed">
                not signed
              </Text>
            )}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">DMARC</Table.Th>
          <Table.Td>
            <Verdict result={auth.dmarc?.result} />{" "}
            {auth.dmarc?.domain ? (
              <Text span size="xs">
                {auth.dmarc.domain}, policy {auth.dmarc.policy ?? "none"}
              </Text>
            ) : null}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">ARC</Table.Th>
          <Table.Td>
            <Verdict result={auth.arc?.result} />
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
