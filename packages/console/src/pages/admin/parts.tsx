import { Alert, Badge, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";

/** A write-only secret as the API reports it: never the value, only whether one is stored. */
export function SecretState({ set, label }: { set: boolean; label: string }) {
  return (
    <Group gap="xs">
      <Text size="sm">{label}:</Text>
      <Badge variant="light" color={set ? "green" : "gray"}>
        {set ? "set" : "not set"}
      </Badge>
    </Group>
  );
}

/** The answer of a connection test (`{success, message, response_time_ms}`) in words. */
export function TestResult({
  result,
  what,
}: {
  result: { success: boolean; message: string; response_time_ms?: number } | undefined;
  what: string;
}) {
  if (!result) return null;
  return (
    <Alert
      role="status"
      variant="light"
      color={result.success ? "green" : "red"}
      title={result.success ? `${what} test passed` : `${what} test failed`}
    >
      {result.message}
      {result.response_time_ms !== undefined && ` (${result.response_time_ms} ms)`}
    </Alert>
  );
}

/** A short confirmation toast whose close button is named for screen readers. */
export function notify(message: string) {
  notifications.show({ message, closeButtonProps: { "aria-label": "Dismiss" } });
}
