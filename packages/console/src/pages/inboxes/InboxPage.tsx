import { Anchor, Group, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { EmailList } from "./mail/EmailList";
import { addLiveEmail, keys, useInbox, type EmailSummary } from "./api";
import { DeleteInboxButton, ExtendInboxButton } from "./InboxActions";
import { CopyButton } from "../../components";
import { ApiError, useAbsolute } from "../../components";
import { ConnectionState } from "./ConnectionState";
import { Countdown } from "./Countdown";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { SmtpBehaviourSection, SmtpLogSection } from "./SmtpBehaviourSection";
import { useInboxStream } from "./useInboxStream";
import { useTeamPermissions } from "../../api/team-permissions";
import { ComposeButton } from "./outbound/OutboundButtons";
import { OutboundLog } from "./outbound/OutboundLog";

/** `/inboxes/:inboxId`: the address to copy, the countdown, and the mail, live over the WebSocket. */
export default function InboxPage() {
  const { inboxId = "" } = useParams();
  const inbox = useInbox(inboxId);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const absolute = useAbsolute();
  const active = !!inbox.data && inbox.data.is_active && new Date(inbox.data.expires_at).getTime() > Date.now();
  const onEmail = useCallback((summary: EmailSummary) => addLiveEmail(qc, inboxId, summary), [qc, inboxId]);
  // after a drop, mail may have come while no socket was open: read the list again
  const onReconnected = useCallback(() => {
    void qc.invalidateQueries({ queryKey: keys.emails(inboxId) });
    void qc.invalidateQueries({ queryKey: keys.inbox(inboxId) });
  }, [qc, inboxId]);
  const stream = useInboxStream(inboxId, { enabled: active, onEmail, onReconnected });
  useDocumentTitle(inbox.data?.full_address ?? "Inbox");
  const perms = useTeamPermissions(inbox.data?.org_id ?? "", inbox.data?.team_id ?? "");
  const canSend = !perms.isLoading && perms.can("team.emails.send");

  if (inbox.isLoading) return <Loader role="status" aria-label="Loading the inbox" />;
  if (inbox.error || !inbox.data)
    return (
      <Stack>
        <Anchor component={Link} to="/inboxes" style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
          <IconArrowLeft size={14} aria-hidden />
          All inboxes
        </Anchor>
        <ApiError error={inbox.error} title="The inbox could not be loaded" onRetry={() => void inbox.refetch()} />
      </Stack>
    );

  const i = inbox.data;
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/inboxes" size="sm" style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
        <IconArrowLeft size={14} aria-hidden />
        All inboxes
      </Anchor>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Group gap={4} wrap="nowrap" align="center">
            <Title order={1} size="h3" style={{ overflowWrap: "anywhere" }} data-testid="inbox-address">
              {i.full_address}
            </Title>
            <CopyButton value={i.full_address} label="Copy the address" />
          </Group>
          <Group gap="xs" wrap="wrap">
            <Countdown expiresAt={i.expires_at} isActive={i.is_active} />
            {active ? (
              <ConnectionState state={stream.state} error={stream.error} retryInMs={stream.retryInMs} onReconnect={stream.reconnect} />
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            Created {absolute(i.created_at)} · expires {absolute(i.expires_at)}
            {i.private ? " · private" : ""}
          </Text>
          <Group gap="xs">
            {active && canSend ? <ComposeButton inbox={i} /> : null}
            {active ? <ExtendInboxButton inbox={i} size="sm" /> : null}
            <DeleteInboxButton inbox={i} size="sm" onDeleted={() => void navigate("/inboxes")} />
          </Group>
        </Stack>
      </Paper>
      <EmailList inbox={i} live={active && stream.state === "live"} />
      <OutboundLog inboxId={i.id} />
      <SmtpBehaviourSection inbox={i} />
      <SmtpLogSection inboxId={i.id} />
    </Stack>
  );
}
