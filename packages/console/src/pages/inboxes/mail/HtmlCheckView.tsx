import { Badge, Button, Code, Group, List, Loader, Paper, RingProgress, Stack, Table, Text, Title } from "@mantine/core";
import { IconChevronDown, IconChevronRight } from "@tabler/icons-react";
import { useDisclosure } from "@mantine/hooks";
import { Fragment, useId } from "react";
import { EmptyState, TableScroll } from "../../../components";
import { ApiError } from "../../../components";
import { useHtmlCheck } from "../api";
import { formatScore, groupNotes, noteParts, splitIssues, type HtmlCheckIssue } from "./html-check";

const scoreColor = (score: number) => (score >= 90 ? "teal" : score >= 60 ? "yellow" : "red");
const COLUMNS = 5;

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

function NoteText({ text }: { text: string }) {
  return <>{noteParts(text).map((p, i) => (p.code ? <Code key={i}>{p.text}</Code> : <Fragment key={i}>{p.text}</Fragment>))}</>;
}

/** caniemail's notes of one issue, the clients that share a text on one line. */
function NoteList({ notes }: { notes: HtmlCheckIssue["notes"] }) {
  return (
    <List size="sm" spacing={4}>
      {groupNotes(notes).map((n) => (
        <List.Item key={n.text}>
          <Text span size="sm" ff="monospace">
            {n.clients.join(", ")}
          </Text>
          : <NoteText text={n.text} />
        </List.Item>
      ))}
    </List>
  );
}

/** The state of a button that shows or hides a region (named like the button), and the region's id. */
function useShown() {
  const id = useId();
  const [open, { toggle }] = useDisclosure(false);
  return { id, open, toggle };
}

function DisclosureButton({
  label,
  text,
  open,
  controls,
  onClick,
}: {
  label: string;
  text: string;
  open: boolean;
  controls: string;
  onClick: () => void;
}) {
  const Icon = open ? IconChevronDown : IconChevronRight;
  return (
    <Button
      variant="subtle"
      size="compact-xs"
      leftSection={<Icon size={14} aria-hidden />}
      aria-expanded={open}
      aria-controls={controls}
      aria-label={label}
      onClick={onClick}
    >
      {text}
    </Button>
  );
}

function IssueRows({ issue }: { issue: HtmlCheckIssue }) {
  const notes = useShown();
  const count = groupNotes(issue.notes).length; // texts, as the clients that share one are listed together
  const label = `Notes on ${issue.feature}`;
  return (
    <>
      <Table.Tr data-testid="html-check-issue">
        <Table.Td style={{ whiteSpace: "nowrap" }}>
          <Text size="sm" ff="monospace">
            {issue.feature}
          </Text>
        </Table.Td>
        <Table.Td>
          <Clients names={issue.clients_unsupported} color="red" />
        </Table.Td>
        <Table.Td>
          <Clients names={issue.clients_partial} color="yellow" />
        </Table.Td>
        <Table.Td>{issue.line ?? "–"}</Table.Td>
        <Table.Td style={{ whiteSpace: "nowrap" }}>
          {count === 0 ? (
            <Text size="xs" c="dimmed">
              none
            </Text>
          ) : (
            <DisclosureButton label={label} text={`Notes (${count})`} open={notes.open} controls={notes.id} onClick={notes.toggle} />
          )}
        </Table.Td>
      </Table.Tr>
      {notes.open && (
        <Table.Tr>
          <Table.Td colSpan={COLUMNS}>
            <div id={notes.id} role="region" aria-label={label}>
              <NoteList notes={issue.notes} />
            </div>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/** The document's wrappers (`scored: false`): one quiet line, their clients and notes behind a disclosure. */
function Unscored({ issues }: { issues: HtmlCheckIssue[] }) {
  const details = useShown();
  const label = "Details on the wrapper elements";
  return (
    <Stack gap={4} data-testid="html-check-unscored">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          Not scored: wrapper elements that clients strip ({issues.map((i) => i.feature).join(", ")}); the content inside them is still
          shown.
        </Text>
        <DisclosureButton label={label} text="Details" open={details.open} controls={details.id} onClick={details.toggle} />
      </Group>
      {details.open && (
        <Stack gap="xs" id={details.id} role="region" aria-label={label}>
          {issues.map((i) => (
            <Fragment key={i.feature}>
              <Text size="sm">
                <Text span size="sm" ff="monospace">
                  {i.feature}
                </Text>
                : stripped by {i.clients_unsupported.length}, in part by {i.clients_partial.length} of the checked clients
                {i.line !== undefined && ` (line ${i.line})`}
              </Text>
              {Object.keys(i.notes).length > 0 && <NoteList notes={i.notes} />}
            </Fragment>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The HTML part's features judged against the caniemail data (extensions section 7): the score (one decimal), one row per
 * scored feature some client lacks or supports in part (caniemail's notes behind a disclosure), and the document's wrapper
 * elements, which do not count, on a line of their own.
 */
export function HtmlCheckView({ emailId, active }: { emailId: string; active: boolean }) {
  const check = useHtmlCheck(emailId, active);
  if (check.isLoading) return <Loader role="status" aria-label="Checking the HTML" />;
  if (check.error || !check.data)
    return <ApiError error={check.error} title="The HTML could not be checked" onRetry={() => void check.refetch()} />;
  const { score, issues, clients } = check.data;
  const shown = formatScore(score);
  const { scored, unscored } = splitIssues(issues);
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
              <Text ta="center" fw={700} size="md" data-testid="html-check-score">
                {shown}
              </Text>
            }
            aria-hidden
          />
          <div>
            <Title order={3} size="h5">
              Email client support: {shown}
            </Title>
            <Text size="sm" c="dimmed">
              How well the {clients.length} checked clients support the HTML and CSS features this mail uses, on average (caniemail data):
              each feature a client lacks takes its share away, one it supports in part half of it.
            </Text>
          </div>
        </Group>
      </Paper>
      {scored.length === 0 ? (
        <EmptyState title="No issues found">
          {unscored.length === 0
            ? "Every checked client supports each feature this mail's HTML uses."
            : "None that count: every checked client supports each scored feature this mail's HTML uses."}
        </EmptyState>
      ) : (
        <TableScroll label="HTML check" minWidth={720}>
          <Table withTableBorder verticalSpacing="xs" data-testid="html-check-issues">
            <Table.Caption>
              {scored.length} {scored.length === 1 ? "feature" : "features"} some clients lack or support in part
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Feature</Table.Th>
                <Table.Th scope="col">Unsupported in</Table.Th>
                <Table.Th scope="col">Partial in</Table.Th>
                <Table.Th scope="col">Line</Table.Th>
                <Table.Th scope="col">Notes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {scored.map((i) => (
                <IssueRows key={i.feature} issue={i} />
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      {unscored.length > 0 && <Unscored issues={unscored} />}
    </Stack>
  );
}
