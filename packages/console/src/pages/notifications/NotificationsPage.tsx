import { ActionIcon, Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Tooltip } from "@mantine/core";
import { IconBell, IconCheck, IconChecks, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { EmptyState, PageHeader, Time, useClampedPage, useListParams, ListView, ConfirmModal, Notice } from "../../components";
import { notificationKeys } from "./keys";
import { linkOf, type Notification } from "./frames";
import { useNotifications, useMarkRead, useDeleteNotification, useMarkAllRead, useClearNotifications } from "./api";

export default function NotificationsPage() {
  const list = useListParams({ filters: ["show"] as const });
  const unreadOnly = list.filters.show === "unread";
  const q = useNotifications({ list, listPerPage: list.perPage, listFilters: list.filters, unreadOnly });
  const invalidates = [notificationKeys.all];
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const markRead = useMarkRead({
    invalidates,
  });
  const remove = useDeleteNotification({ invalidates });
  const markAll = useMarkAllRead({
    invalidates,
    onSuccess: (r) => setNotice(r.marked === 0 ? "Nothing was unread." : `Marked ${r.marked} read.`),
  });
  const clear = useClearNotifications({
    invalidates,
    onSuccess: () => {
      setConfirmClear(false);
      setNotice("Every notification is deleted.");
      list.setPage(1);
    },
  });
  useClampedPage(list, q.data);
  const rows = q.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Notifications"
        description="Mail that reached your inboxes, inboxes created and expired, invites accepted, teams you joined."
        actions={
          <>
            <Button variant="light" leftSection={<IconChecks size={16} />} loading={markAll.isPending} onClick={() => markAll.mutate()}>
              Mark all read
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              disabled={rows.length === 0}
              onClick={() => setConfirmClear(true)}
            >
              Delete all
            </Button>
          </>
        }
      />
      <Group mb="sm">
        <SegmentedControl
          aria-label="Which notifications"
          value={unreadOnly ? "unread" : "all"}
          onChange={(v) => list.setFilter("show", v === "unread" ? "unread" : undefined)}
          data={[
            { value: "all", label: "All" },
            { value: "unread", label: "Unread" },
          ]}
        />
      </Group>
      {notice && (
        <Notice onClose={() => setNotice(null)} mb="sm">
          {notice}
        </Notice>
      )}
      <ListView
        query={q}
        error={q.error ?? markRead.error ?? remove.error ?? markAll.error}
        loading={{ label: "Loading notifications", height: 160 }}
        empty={
          <EmptyState title={unreadOnly ? "Nothing unread" : "No notifications"} icon={<IconBell size={28} stroke={1.5} />}>
            {unreadOnly
              ? "You have read everything. Switch to All to see older notifications."
              : "Create an inbox and send it a mail: you are told here (and by the bell) the moment it arrives."}
          </EmptyState>
        }
        pagination={{ params: list, label: "Notification pages" }}
      >
        {(rows) => (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Notifications">
            {rows.map((n) => (
              <NotificationItem
                key={n.id}
                n={n}
                onRead={() => markRead.mutate(n.id)}
                onDelete={() => remove.mutate(n.id)}
                busy={(markRead.isPending && markRead.variables === n.id) || (remove.isPending && remove.variables === n.id)}
              />
            ))}
          </Stack>
        )}
      </ListView>
      <ConfirmModal
        opened={confirmClear}
        title="Delete every notification?"
        confirmLabel="Delete all"
        loading={clear.isPending}
        error={clear.error}
        onConfirm={() => clear.mutate()}
        onClose={() => {
          clear.reset();
          setConfirmClear(false);
        }}
      >
        All your notifications, read and unread, on every page, are deleted. The mail and inboxes they tell of stay.
      </ConfirmModal>
    </>
  );
}

function NotificationItem({ n, onRead, onDelete, busy }: { n: Notification; onRead: () => void; onDelete: () => void; busy: boolean }) {
  const to = linkOf(n);
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      style={{ borderLeftWidth: 4, borderLeftColor: n.is_read ? undefined : "var(--mantine-color-orange-6)" }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            {!n.is_read && (
              <Badge color="orange" variant="dot" size="sm">
                Unread
              </Badge>
            )}
            <Text fw={n.is_read ? 500 : 700}>
              {to ? (
                <Anchor component={Link} to={to} onClick={() => !n.is_read && onRead()} inherit>
                  {n.title}
                </Anchor>
              ) : (
                n.title
              )}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {n.type}
            </Text>
          </Group>
          <Text size="sm" style={{ wordBreak: "break-word" }}>
            {n.message}
          </Text>
          <Text size="xs" c="dimmed">
            <Time value={n.created_at} />
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {!n.is_read && (
            <Tooltip label="Mark read" withArrow>
              <ActionIcon variant="subtle" aria-label={`Mark read: ${n.message}`} onClick={onRead} loading={busy}>
                <IconCheck size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete: ${n.message}`} onClick={onDelete} disabled={busy}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}
