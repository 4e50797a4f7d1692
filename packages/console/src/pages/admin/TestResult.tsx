import { Alert } from "@mantine/core";

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
