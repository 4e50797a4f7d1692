import { ActionIcon, Badge, Box, Button, Group, Paper, Stack, Text, Title, Tooltip, UnstyledButton } from "@mantine/core";
import { IconMail, IconMailOpened, IconPaperclip, IconTrash } from "@tabler/icons-react";
import { memo, useCallback, useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { EmptyState, ListView, Time, useListParams } from "../../../components";
import { PER_PAGE, useDeleteEmail, useEmails, useMarkAllRead, useSetRead, type EmailSummary, type Inbox } from "../api";
import { ApiError } from "../../../components";
import { SearchBox } from "../SearchBox";
import { formatScore, overRequired } from "./spam";

/** The inbox's mail, newest first: search and page in the URL (`?q=&page=`), read/unread, delete, mark all read. */
export function EmailList({ inbox, live }: { inbox: Inbox; live: boolean }) {
  const list = useListParams({ perPage: PER_PAGE, filters: ["q"] as const });
  const q = list.filters.q ?? "";
  const emails = useEmails(inbox.id, { q, page: list.page });
  const markAll = useMarkAllRead();
  const setRead = useSetRead();
  const del = useDeleteEmail();
  const { mutate: setReadMutate } = setRead;
  const { mutate: deleteMutate } = del;
  const toggleRead = useCallback(
    (e: EmailSummary) => setReadMutate({ id: e.id, inboxId: inbox.id, isRead: !e.is_read }),
    [setReadMutate, inbox.id],
  );
  const deleteEmail = useCallback((e: EmailSummary) => deleteMutate({ id: e.id, inboxId: inbox.id }), [deleteMutate, inbox.id]);
  const listRef = useRef<HTMLDivElement>(null);

  // Up/Down (or j/k) move between the mail rows; Enter opens one
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 } as Record<string, number>;
    const step = keys[e.key];
    if (!step || !listRef.current) return;
    const links = [...listRef.current.querySelectorAll<HTMLAnchorElement>("a[data-mail-link]")];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = links[Math.min(links.length - 1, Math.max(0, at === -1 ? 0 : at + step))];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  const actionError = markAll.error ?? setRead.error ?? del.error;
  const unread = inbox.unread_count;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          Mail{" "}
          {unread > 0 ? (
            <Badge variant="light" color="blue" component="span">
              {unread} unread
            </Badge>
          ) : null}
        </Title>
        <Button
          size="xs"
          variant="light"
          onClick={() => markAll.mutate(inbox.id)}
          loading={markAll.isPending}
          disabled={inbox.email_count === 0}
        >
          Mark all read
        </Button>
      </Group>
      <SearchBox
        params={list}
        aria-label="Search mail by subject, sender or text"
        placeholder="Search: words, from:, subject:, is:unread, -word"
      />
      <ApiError error={actionError} title="That did not work" />
      <ApiError error={emails.error} title="The mail could not be loaded" onRetry={() => void emails.refetch()} />
      <ListView
        query={emails}
        error={null}
        loading={{ label: "Loading mail" }}
        empty={
          q ? (
            <EmptyState
              title="No mail matches"
              action={
                <Button variant="light" onClick={() => list.setFilter("q", undefined)}>
                  Clear the search
                </Button>
              }
            >
              Nothing in this inbox matches “{q}”.
            </EmptyState>
          ) : (
            <EmptyState title="No mail yet">
              Send a message to <b>{inbox.full_address}</b>.{" "}
              {live ? "It appears here as soon as it arrives; no need to reload." : "Reload this page to see mail that has come in."}
            </EmptyState>
          )
        }
        pagination={{ params: list, label: "Mail pages" }}
      >
        {(rows) => (
          <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: "none" }} aria-label="Mail" ref={listRef} onKeyDown={onKeyDown}>
            {rows.map((e) => (
              <EmailRow key={e.id} email={e} inboxId={inbox.id} onToggleRead={toggleRead} onDelete={deleteEmail} />
            ))}
          </Stack>
        )}
      </ListView>
    </Stack>
  );
}

// memoised: a mail arriving live renders its own row, not every row of the page
const EmailRow = memo(function EmailRow({
  email,
  inboxId,
  onToggleRead,
  onDelete,
}: {
  email: EmailSummary;
  inboxId: string;
  onToggleRead: (email: EmailSummary) => void;
  onDelete: (email: EmailSummary) => void;
}) {
  // for the bench: how long from the WebSocket frame to this row on screen (the rAF after its
  // commit runs just before the frame that paints it)
  useLayoutEffect(() => {
    const mark = `bb:frame:${email.id}`;
    if (performance.getEntriesByName(mark).length === 0) return;
    requestAnimationFrame(() => performance.measure(`bb:row:${email.id}`, mark));
  }, [email.id]);
  const from = email.from_address || "(no sender)";
  // against the mail's own required score (a frame from before the summaries carried it: rspamd's default)
  const likelySpam = overRequired(email.spam_score, email.spam_required_score ?? undefined);
  return (
    <Paper component="li" withBorder p="xs" data-testid="mail-row" data-read={email.is_read ? "true" : "false"}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <UnstyledButton
          component={Link}
          to={`/inboxes/${inboxId}/mail/${email.id}`}
          data-mail-link
          style={{ flex: 1, minWidth: 0 }}
          aria-label={`${email.is_read ? "" : "Unread. "}${likelySpam ? "Likely spam. " : ""}From ${from}: ${email.subject || "(no subject)"}`}
        >
          <Group gap={6} wrap="nowrap">
            {!email.is_read ? <Box w={8} h={8} bg="blue" style={{ borderRadius: 4, flex: "none" }} aria-hidden /> : null}
            <Text size="sm" fw={email.is_read ? 400 : 700} truncate="end" style={{ flex: 1 }}>
              {from}
            </Text>
            <Text size="xs" c="dimmed" style={{ flex: "none" }}>
              <Time value={email.received_at} />
            </Text>
          </Group>
          <Text size="sm" fw={email.is_read ? 400 : 600} truncate="end">
            {email.has_attachments ? (
              <IconPaperclip size={14} aria-label="with attachments" style={{ verticalAlign: "-2px", marginRight: 4 }} />
            ) : null}
            {email.subject || "(no subject)"}
          </Text>
          {(email as { authentication_summary?: string }).authentication_summary === "fail" ? (
            <Badge size="xs" color="red.9" variant="filled" tt="none">
              DMARC fail
            </Badge>
          ) : null}
          {likelySpam ? (
            <Badge size="xs" color="red.9" variant="filled" tt="none" data-testid="spam-marker" ml={4}>
              Spam {formatScore(email.spam_score!)}
            </Badge>
          ) : null}
          <Text size="xs" c="dimmed" truncate="end">
            {email.snippet}
          </Text>
        </UnstyledButton>
        <Group gap={2} wrap="nowrap" style={{ flex: "none" }}>
          <Tooltip label={email.is_read ? "Mark unread" : "Mark read"} withArrow>
            <ActionIcon variant="subtle" onClick={() => onToggleRead(email)} aria-label={email.is_read ? "Mark unread" : "Mark read"}>
              {email.is_read ? <IconMail size={18} /> : <IconMailOpened size={18} />}
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onDelete(email)}
              aria-label={`Delete the mail ${email.subject || "(no subject)"}`}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
});
