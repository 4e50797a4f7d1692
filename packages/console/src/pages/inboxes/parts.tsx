// Pieces this area shares between the inbox and mail pages; the console's shared components come from ../../components.
import { Badge, Button, Group, Stack, Text, Tooltip } from "@mantine/core";
import { useEffect } from "react";
import { ApiErrorAlert, formatAbsolute, useDatetimeSettings, useNow } from "../../components";
import { humanDuration } from "./duration";
import type { StreamState } from "./useInboxStream";

/** The API's message (the shared alert) and, when the read can be repeated, a retry button. */
export function ApiError({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <Stack gap={6} align="flex-start">
      <ApiErrorAlert error={error} title={title} />
      {onRetry ? (
        <Button size="xs" variant="light" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Stack>
  );
}

/** An absolute time in the user's timezone and formats (`GET /auth/datetime-settings`). */
export function useAbsolute(): (iso: string) => string {
  const settings = useDatetimeSettings();
  return (iso) => formatAbsolute(iso, settings);
}

/**
 * How long an inbox has left, ticking every second; the absolute expiry on hover (formatted only
 * then: the label's component renders when the tooltip opens, so a list's rows do not format it).
 */
export function Countdown({ expiresAt, isActive = true }: { expiresAt: string; isActive?: boolean }) {
  const now = useNow(1000);
  const left = new Date(expiresAt).getTime() - now;
  if (!isActive || left <= 0) return <ExpiredBadge expiresAt={expiresAt} />;
  return (
    <Tooltip label={<AbsoluteTime prefix="Expires" iso={expiresAt} />} withArrow>
      <Badge
        color={left < 60_000 ? "red.9" : left < 300_000 ? "orange.9" : "teal.9"}
        variant="filled"
        tt="none"
        data-testid="countdown"
        tabIndex={0}
      >
        <time dateTime={expiresAt}>{humanDuration(left)} left</time>
      </Badge>
    </Tooltip>
  );
}

function AbsoluteTime({ prefix, iso }: { prefix: string; iso: string }) {
  const absolute = useAbsolute();
  return `${prefix} ${absolute(iso)}`;
}

function ExpiredBadge({ expiresAt }: { expiresAt: string }) {
  const absolute = useAbsolute();
  return (
    <Badge color="gray.7" variant="filled" tt="none" title={`Expired ${absolute(expiresAt)}`} data-testid="countdown" data-expired="true">
      Expired
    </Badge>
  );
}

const STATE_LABEL: Record<StreamState, { label: string; color: string }> = {
  connecting: { label: "Connecting…", color: "gray.7" },
  live: { label: "Live", color: "teal.8" },
  reconnecting: { label: "Reconnecting…", color: "orange.8" },
  offline: { label: "Disconnected", color: "red.8" },
  ended: { label: "Closed", color: "gray.7" },
};

/** The live connection's state (announced politely to screen readers) and a reconnect button while it is down. */
export function ConnectionState({
  state,
  error,
  retryInMs,
  onReconnect,
}: {
  state: StreamState;
  error: string | null;
  retryInMs: number | null;
  onReconnect: () => void;
}) {
  const { label, color } = STATE_LABEL[state];
  return (
    <Group gap="xs" wrap="nowrap" data-testid="connection-state" data-state={state}>
      <Badge color={color} variant="dot" tt="none" title={error ?? undefined} role="status" aria-live="polite">
        {label}
      </Badge>
      {state === "reconnecting" && retryInMs !== null ? (
        <Text size="xs" c="dimmed">
          next try in {Math.ceil(retryInMs / 1000)} s
        </Text>
      ) : null}
      {state === "offline" || state === "reconnecting" ? (
        <Button size="compact-xs" variant="light" onClick={onReconnect}>
          Reconnect now
        </Button>
      ) : null}
    </Group>
  );
}

/** The browser tab's title for a page without the shared PageHeader. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · BurnBox`;
  }, [title]);
}
