import { Alert, Badge, Group, Stack, Table, Text } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import type { SpamResult } from "../api";
import { formatScore } from "./spam";

const ACTION_COLOR: Record<string, string> = {
  "no action": "teal.9",
  greylist: "yellow.9",
  "add header": "orange.9",
  "rewrite subject": "orange.9",
  "soft reject": "red.9",
  reject: "red.9",
};

/** The reader's "Spam" tab (extensions section 9): rspamd's score, required score and action, and each symbol it matched. */
export function SpamView({ spam }: { spam: SpamResult }) {
  if (spam.status === "unavailable")
    return (
      <Alert color="gray" variant="light" icon={<IconInfoCircle />} title="Not scored" data-testid="spam-state" data-state="unavailable">
        The spam checker (rspamd) was down or did not answer in time when this mail arrived, so it has no score. The mail was stored all the
        same.
      </Alert>
    );
  if (spam.status === "disabled")
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconInfoCircle />}
        title="Spam scoring is off"
        data-testid="spam-state"
        data-state="disabled"
      >
        This BurnBox has no spam checker configured (<code>spam.rspamd_url</code>), so received mail is not scored.
      </Alert>
    );
  const over = spam.score >= spam.required_score;
  const symbols = [...spam.symbols].sort((a, b) => Math.abs(b.score) - Math.abs(a.score) || a.name.localeCompare(b.name));
  return (
    <Stack gap="sm" data-testid="spam-state" data-state="scored">
      <Group gap="xl" wrap="wrap" align="flex-end">
        <div>
          <Text size="xs" c="dimmed">
            Score
          </Text>
          <Text size="xl" fw={700} data-testid="spam-score">
            {formatScore(spam.score)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Required score
          </Text>
          <Text size="xl" fw={700} data-testid="spam-required">
            {formatScore(spam.required_score)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Action
          </Text>
          <Badge size="lg" variant="filled" color={ACTION_COLOR[spam.action] ?? "gray.7"} tt="none" data-testid="spam-action">
            {spam.action}
          </Badge>
        </div>
      </Group>
      <Text size="sm">
        {over
          ? "At or over the required score: a filter using these rules would treat this mail as spam."
          : "Under the required score: a filter using these rules would deliver this mail."}
      </Text>
      {symbols.length === 0 ? (
        <Text size="sm" c="dimmed">
          No rules matched.
        </Text>
      ) : (
        <Table withTableBorder verticalSpacing={6} fz="sm" aria-label="Spam rules matched">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Rule</Table.Th>
              <Table.Th ta="right">Score</Table.Th>
              <Table.Th>What it means</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {symbols.map((s) => (
              <Table.Tr key={s.name} data-testid="spam-symbol">
                <Table.Td style={{ fontFamily: "var(--mantine-font-family-monospace)", overflowWrap: "anywhere" }}>{s.name}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                  {s.score > 0 ? "+" : ""}
                  {formatScore(s.score)}
                </Table.Td>
                <Table.Td>
                  {s.description ?? (
                    <Text span size="xs" c="dimmed">
                      no description
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
