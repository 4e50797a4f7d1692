import { Badge, Button, Group, Stack, Table, Text } from "@mantine/core";
import { ApiError } from "../../../components";
import { useLinkCheck } from "../api";
import { TableScroll } from "../../../components";

const ERROR_LABEL: Record<string, string> = {
  refused: "refused (private or local address)",
  timeout: "timed out after 5 s",
  unreachable: "unreachable",
  tls: "TLS failed",
  invalid: "not an http(s) URL",
};

/** "Check links": `POST /emails/{id}/link-check` and each link's answer (extensions section 7); redirects are reported, not followed. */
export function LinkCheckView({ emailId }: { emailId: string }) {
  const check = useLinkCheck();
  const links = check.data?.links;
  return (
    <Stack gap="xs" align="stretch">
      <Group gap="xs">
        <Button size="xs" variant="light" loading={check.isPending} onClick={() => check.mutate(emailId)}>
          {links ? "Check links again" : "Check links"}
        </Button>
        <Text size="xs" c="dimmed">
          Fetches each link once (HEAD, then GET), without following redirects.
        </Text>
      </Group>
      <ApiError error={check.error} title="The links could not be checked" />
      {links ? (
        <TableScroll label="Link check" minWidth={560}>
          <Table striped withTableBorder verticalSpacing="xs" data-testid="link-check">
            <Table.Caption>
              {links.filter((l) => l.ok).length} of {links.length} {links.length === 1 ? "link" : "links"} answered with a 2xx
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Link</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Result</Table.Th>
                <Table.Th scope="col">Redirects to / error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.map((l, i) => (
                <Table.Tr key={`${i}:${l.url}`} data-testid="link-check-row" data-ok={String(l.ok)}>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    <Text size="xs">{l.url}</Text>
                  </Table.Td>
                  <Table.Td>{l.status ?? "–"}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={l.ok ? "teal" : "red"}>
                      {l.ok ? "OK" : "Not OK"}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    <Text size="xs">{l.redirect_to ?? (l.error ? (ERROR_LABEL[l.error] ?? l.error) : "–")}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      ) : null}
    </Stack>
  );
}
