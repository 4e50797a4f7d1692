import { Button, Stack } from "@mantine/core";
import { ApiErrorAlert } from "./ApiErrorAlert";

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
