import { Anchor, Badge, Button, Group, Loader, Paper, Stack, Tabs, Text, Title } from "@mantine/core";
import { useEffect, useRef } from "react";
import { IconArrowLeft } from "@tabler/icons-react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useDeleteEmail, useEmail, useInbox, useSetRead, type EmailView } from "../api";
import { useTeamPermissions } from "../../../api/team-permissions";
import { ReleaseButton, ReplyButton } from "../outbound/OutboundButtons";
import { EmptyState } from "../../../components";
import { ApiError, useAbsolute } from "../../../components";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import { AttachmentsView } from "./AttachmentsView";
import { ExtractedView } from "./ExtractedView";
import { HtmlCheckView } from "./HtmlCheckView";
import { HtmlView } from "./HtmlView";
import { PreviewView } from "./PreviewView";
import { spamLine } from "./spam";
import { SpamView } from "./SpamView";
import { AuthenticationView, HeadersView, RawView } from "./SourceViews";

const TABS = ["html", "preview", "html-check", "text", "headers", "raw", "attachments", "extracted", "authentication", "spam"] as const;
type Tab = (typeof TABS)[number];

/** `/inboxes/:inboxId/mail/:emailId?tab=`: one mail in tabs; opening it marks it read (once). */
export default function ReaderPage() {
  const { inboxId = "", emailId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const email = useEmail(emailId);
  const setRead = useSetRead();
  const del = useDeleteEmail();
  const marked = useRef<string | null>(null);
  const absolute = useAbsolute();
  useDocumentTitle(email.data ? email.data.subject || "(no subject)" : "Mail");

  useEffect(() => {
    const e = email.data;
    if (e && !e.is_read && marked.current !== e.id) {
      marked.current = e.id;
      setRead.mutate({ id: e.id, inboxId: e.inbox_id, isRead: true });
    }
  }, [email.data?.id]);

  const back = `/inboxes/${inboxId}`;
  if (email.isLoading) return <Loader role="status" aria-label="Loading the mail" />;
  if (email.error || !email.data)
    return (
      <Stack>
        <Anchor component={Link} to={back} style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
          <IconArrowLeft size={14} aria-hidden />
          Back to the inbox
        </Anchor>
        <ApiError error={email.error} title="The mail could not be loaded" onRetry={() => void email.refetch()} />
      </Stack>
    );

  const e = email.data;
  const requested = params.get("tab") as Tab | null;
  const fallback: Tab = e.body_html ? "html" : "text";
  const tab: Tab =
    requested &&
    TABS.includes(requested) &&
    (requested !== "authentication" || e.authentication) &&
    (requested !== "html-check" || e.body_html)
      ? requested
      : fallback;
  const setTab = (t: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (!t || t === fallback) next.delete("tab");
        else next.set("tab", t);
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="md">
      <Anchor component={Link} to={back} size="sm" style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
        <IconArrowLeft size={14} aria-hidden />
        Back to the inbox
      </Anchor>
      <Paper withBorder p="md">
        <Stack gap={6}>
          <Title order={1} size="h3" style={{ overflowWrap: "anywhere" }} data-testid="mail-subject">
            {e.subject || "(no subject)"}
          </Title>
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            <b>From</b> {e.from_address || "(no sender)"}
          </Text>
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            <b>To</b> {e.to_address}
          </Text>
          <Text size="xs" c="dimmed">
            Received {absolute(e.received_at)}
          </Text>
          <SpamBadge email={e} onOpen={() => setTab("spam")} />
          <Group gap="xs" mt={4}>
            <Badge variant="light" color={e.is_read ? "gray" : "blue"} data-testid="read-state">
              {e.is_read ? "Read" : "Unread"}
            </Badge>
            <Button
              size="xs"
              variant="light"
              loading={setRead.isPending}
              onClick={() => setRead.mutate({ id: e.id, inboxId: e.inbox_id, isRead: !e.is_read })}
            >
              {e.is_read ? "Mark unread" : "Mark read"}
            </Button>
            <MailOutButtons email={e} />
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={del.isPending}
              onClick={() => del.mutate({ id: e.id, inboxId: e.inbox_id }, { onSuccess: () => void navigate(back) })}
            >
              Delete
            </Button>
          </Group>
          <ApiError error={setRead.error} title="The read state was not changed" />
          <ApiError error={del.error} title="The mail was not deleted" />
        </Stack>
      </Paper>

      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List style={{ flexWrap: "wrap" }} aria-label="Views of the mail">
          <Tabs.Tab value="html">HTML</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
          {e.body_html ? <Tabs.Tab value="html-check">HTML check</Tabs.Tab> : null}
          <Tabs.Tab value="text">Text</Tabs.Tab>
          <Tabs.Tab value="headers">Headers</Tabs.Tab>
          <Tabs.Tab value="raw">Source</Tabs.Tab>
          <Tabs.Tab value="attachments">Attachments ({e.attachments.length})</Tabs.Tab>
          <Tabs.Tab value="extracted">Codes &amp; links ({e.extracted.codes.length + e.extracted.links.length})</Tabs.Tab>
          {e.authentication ? <Tabs.Tab value="authentication">Authentication</Tabs.Tab> : null}
          <Tabs.Tab value="spam">Spam</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="html" pt="sm">
          {e.body_html ? (
            <HtmlView html={e.body_html} subject={e.subject} />
          ) : (
            <EmptyState title="No HTML part">This mail was sent as plain text only: see the Text tab.</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="sm">
          <PreviewView emailId={e.id} subject={e.subject} />
        </Tabs.Panel>
        {e.body_html ? (
          <Tabs.Panel value="html-check" pt="sm">
            <HtmlCheckView emailId={e.id} active={tab === "html-check"} />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="text" pt="sm">
          {e.body_text ? (
            <Paper withBorder p="sm">
              <Text
                component="pre"
                size="sm"
                m={0}
                style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", fontFamily: "var(--mantine-font-family-monospace)" }}
                data-testid="mail-text"
              >
                {e.body_text}
              </Text>
            </Paper>
          ) : (
            <EmptyState title="No text part">This mail has no plain-text part: see the HTML tab.</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="headers" pt="sm">
          <HeadersView headers={e.headers} />
        </Tabs.Panel>
        <Tabs.Panel value="raw" pt="sm">
          <RawView emailId={e.id} active={tab === "raw"} />
        </Tabs.Panel>
        <Tabs.Panel value="attachments" pt="sm">
          <AttachmentsView email={e} />
        </Tabs.Panel>
        <Tabs.Panel value="extracted" pt="sm">
          <ExtractedView emailId={e.id} extracted={e.extracted} />
        </Tabs.Panel>
        {e.authentication ? (
          <Tabs.Panel value="authentication" pt="sm">
            <AuthenticationView auth={e.authentication} />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="spam" pt="sm">
          <SpamView spam={e.spam} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** Reply and Release, for those whose team role holds `team.emails.send` (extensions section 10). */
function MailOutButtons({ email }: { email: EmailView }) {
  const inbox = useInbox(email.inbox_id);
  const perms = useTeamPermissions(inbox.data?.org_id ?? "", inbox.data?.team_id ?? "");
  if (!inbox.data || perms.isLoading || !perms.can("team.emails.send")) return null;
  return (
    <>
      <ReplyButton email={email} />
      <ReleaseButton email={email} />
    </>
  );
}

/** The spam verdict in one line under the header (extensions section 9); opens the Spam tab. */
function SpamBadge({ email, onOpen }: { email: EmailView; onOpen: () => void }) {
  const spam = email.spam;
  const over = spam.status === "scored" && spam.score >= spam.required_score;
  return (
    <Group gap={6}>
      <Anchor
        component="button"
        type="button"
        size="xs"
        c={over ? "var(--mantine-color-red-text)" : "dimmed"}
        onClick={onOpen}
        data-testid="spam-line"
      >
        {spamLine(spam)}
      </Anchor>
      {over ? (
        <Badge size="xs" color="red.9" variant="filled" tt="none">
          Likely spam
        </Badge>
      ) : null}
    </Group>
  );
}
