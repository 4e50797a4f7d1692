import { Badge, Button, Group, Text } from "@mantine/core";
import type { StreamState } from "./useInboxStream";

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
