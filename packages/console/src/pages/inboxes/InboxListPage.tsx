import { Anchor, Badge, Button, Group, Loader, Modal, Paper, SegmentedControl, Stack, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { markPainted } from "../../lib/first-paint";
import { useWorkspace } from "../../api/workspace";
import { CopyButton, EmptyState, ListView, PageHeader, useListParams } from "../../components";
import { inboxStatus, PER_PAGE, useInboxes, useMyDomains, type Inbox } from "./api";
import { CreateInboxForm } from "./CreateInboxForm";
import { DeleteInboxButton, ExtendInboxButton } from "./InboxActions";
import { useMissingDomainHelp } from "./MissingDomain";
import { ApiError } from "../../components";
import { Countdown } from "./Countdown";
import { SearchBox } from "./SearchBox";

/** `/inboxes?status=&q=&page=`: the chosen team's inboxes, the create form (`?new=1`), extend and delete. */
export default function InboxListPage() {
  const list = useListParams({ perPage: PER_PAGE, filters: ["status", "q"] as const });
  const status = inboxStatus(list.filters.status);
  const q = list.filters.q ?? "";
  const [params, setParams] = useSearchParams();
  const creating = params.get("new") === "1";
  const setCreating = (open: boolean) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (open) next.set("new", "1");
        else next.delete("new");
        return next;
      },
      { replace: true },
    );
  const navigate = useNavigate();
  const { team, isLoading: workspaceLoading } = useWorkspace();
  const inboxes = useInboxes({ teamId: team?.id, status, q, page: list.page }, !workspaceLoading);
  const domains = useMyDomains();
  const missing = useMissingDomainHelp();

  // the rows (or the empty state, or the error) are on screen: the shell's deferred work may start
  const settled = !workspaceLoading && !inboxes.isLoading;
  useEffect(() => {
    if (settled) markPainted();
  }, [settled]);
  useEffect(() => markPainted, []);

  const canCreate = (domains.data ?? []).some((d) => d.access_level !== "read_only");
  const filtered = q !== "" || status !== "active";
  return (
    <>
      <PageHeader
        title="Inboxes"
        description={team ? `Team ${team.name}` : undefined}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} disabled={domains.isLoading}>
            New inbox
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="sm" wrap="wrap" align="flex-end">
          <SegmentedControl
            aria-label="Status"
            value={status}
            onChange={(v) => list.setFilter("status", v === "active" ? undefined : v)}
            data={[
              { value: "active", label: "Active" },
              { value: "expired", label: "Expired" },
              { value: "all", label: "All" },
            ]}
          />
          <SearchBox params={list} aria-label="Search inboxes by address" placeholder="Search by address" style={{ flex: "1 1 12rem" }} />
        </Group>

        <ApiError error={domains.error} title="Your domains could not be loaded" onRetry={() => void domains.refetch()} />
        <ApiError error={inboxes.error} title="The inboxes could not be loaded" onRetry={() => void inboxes.refetch()} />
        <ListView
          query={inboxes}
          error={null}
          loading={{ label: "Loading inboxes" }}
          empty={
            filtered ? (
              <EmptyState
                title="No inboxes match"
                action={
                  <Button variant="light" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
                    Show all active inboxes
                  </Button>
                }
              >
                {q ? `No ${status === "all" ? "" : status} inbox has “${q}” in its address.` : `No ${status} inboxes.`} Clear the search or
                pick another status.
              </EmptyState>
            ) : (
              <EmptyState
                title="No inboxes yet"
                action={
                  canCreate ? (
                    <Button onClick={() => setCreating(true)}>Create your first inbox</Button>
                  ) : domains.data ? (
                    missing.action
                  ) : undefined
                }
              >
                {domains.data && !canCreate
                  ? missing.text
                  : "Create an inbox to get an address that receives mail. Mail sent to it shows up here as it arrives."}
              </EmptyState>
            )
          }
          pagination={{ params: list, label: "Inbox pages" }}
        >
          {(rows) => (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Inboxes">
              {rows.map((inbox) => (
                <InboxRow key={inbox.id} inbox={inbox} />
              ))}
            </Stack>
          )}
        </ListView>
      </Stack>

      <Modal opened={creating} onClose={() => setCreating(false)} title="New inbox" size="lg" closeButtonProps={{ "aria-label": "Close" }}>
        {domains.isLoading ? <Loader role="status" aria-label="Loading your domains" /> : null}
        {domains.data ? (
          <CreateInboxForm domains={domains.data} preferTeamId={team?.id} onCreated={(inbox) => void navigate(`/inboxes/${inbox.id}`)} />
        ) : null}
        <ApiError error={domains.error} title="Your domains could not be loaded" />
      </Modal>
    </>
  );
}

function InboxRow({ inbox }: { inbox: Inbox }) {
  const expired = !inbox.is_active || new Date(inbox.expires_at).getTime() <= Date.now();
  return (
    <Paper component="li" withBorder p="sm" data-testid="inbox-row">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: "1 1 16rem" }}>
          <Anchor component={Link} to={`/inboxes/${inbox.id}`} fw={600} style={{ overflowWrap: "anywhere" }}>
            {inbox.full_address}
          </Anchor>
          <CopyButton value={inbox.full_address} label={`Copy ${inbox.full_address}`} />
        </Group>
        <Group gap="xs" wrap="wrap">
          {inbox.private ? (
            <Badge variant="outline" color="gray">
              Private
            </Badge>
          ) : null}
          <Text size="sm" c={inbox.unread_count > 0 ? undefined : "dimmed"} fw={inbox.unread_count > 0 ? 600 : 400}>
            {inbox.unread_count > 0 ? `${inbox.unread_count} unread · ` : ""}
            {inbox.email_count} {inbox.email_count === 1 ? "email" : "emails"}
          </Text>
          <Countdown expiresAt={inbox.expires_at} isActive={inbox.is_active} />
          {!expired ? <ExtendInboxButton inbox={inbox} /> : null}
          <DeleteInboxButton inbox={inbox} />
        </Group>
      </Group>
    </Paper>
  );
}
