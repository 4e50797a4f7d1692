import { Badge, Group, Loader, Paper, RingProgress, Stack, Table, Text, Title } from "@mantine/core";
import { EmptyState, TableScroll } from "../../components";
import { ApiError } from "../inboxes/parts";
import { useHtmlCheck } from "./checks";

const scoreColor = (score: number) => (score >= 90 ? "teal" : score >= 60 ? "yellow" : "red");

function Clients({ names, color }: { names: string[]; color: string }) {
  if (names.length === 0)
    return (
      <Text size="xs" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {names.map((n) => (
        <Badge key={n} variant="light" color={color} size="sm" tt="none">
          {n}
        </Badge>
      ))}
    </Group>
  );
}

/** The HTML part's features judged against the caniemail data (extensions section 7): the score and one row per feature some client lacks. */
export function HtmlCheckView({ emailId, active }: { emailId: string; active: boolean }) {
  const check = useHtmlCheck(emailId, active);
  if (check.isLoading) return <Loader role="status" aria-label="Checking the HTML" />;
  if (check.error || !check.data)
    return <ApiError error={check.error} title="The HTML could not be checked" onRetry={() => void check.refetch()} />;
  const { score, issues, clients } = check.data;
  const rounded = Math.round(score);
  return (
    <Stack gap="md">
      <Paper withBorder p="sm">
        <Group gap="md" wrap="nowrap">
          <RingProgress
            size={88}
            thickness={8}
            roundCaps
            sections={[{ value: score, color: scoreColor(score) }]}
            label={
              <Text ta="center" fw={700} size="lg" data-testid="html-check-score">
                {rounded}%
              </Text>
            }
            aria-hidden
          />
          <div>
            <Title order={3} size="h5">
              Email client support: {rounded}%
            </Title>
            <Text size="sm" c="dimmed">
              The share of the {clients.length} checked clients that fully support every HTML and CSS feature this mail uses (caniemail
              data; partial support counts as unsupported).
            </Text>
          </div>
        </Group>
      </Paper>
      {issues.length === 0 ? (
        <EmptyState title="No issues found">Every checked client supports each feature this mail's HTML uses.</EmptyState>
      ) : (
        <TableScroll label="HTML check" minWidth={640}>
          <Table striped withTableBorder verticalSpacing="xs" data-testid="html-check-issues">
            <Table.Caption>
              {issues.length} {issues.length === 1 ? "feature" : "features"} some clients lack or support in part
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Feature</Table.Th>
                <Table.Th scope="col">Unsupported in</Table.Th>
                <Table.Th scope="col">Partial in</Table.Th>
                <Table.Th scope="col">Line</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {issues.map((i) => (
                <Table.Tr key={i.feature} data-testid="html-check-issue">
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    <Text size="sm" ff="monospace">
                      {i.feature}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Clients names={i.clients_unsupported} color="red" />
                  </Table.Td>
                  <Table.Td>
                    <Clients names={i.clients_partial} color="yellow" />
                  </Table.Td>
                  <Table.Td>{i.line ?? "–"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </Stack>
  );
}
