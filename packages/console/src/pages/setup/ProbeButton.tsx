import { Alert, Button, Group, Stack } from "@mantine/core";
import { IconCircleCheck, IconPlugConnectedX } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { ApiErrorAlert } from "../../components";
import type { Probe } from "./api";

/** A connection test's answer in words: connected (and how fast) or why not. */
export function ProbeResult({ result }: { result: Probe | undefined }) {
  if (!result) return null;
  return result.success ? (
    <Alert role="status" color="green" variant="light" icon={<IconCircleCheck />} title="Connection works">
      {result.message} (answered in {result.response_time_ms} ms)
    </Alert>
  ) : (
    <Alert role="status" color="red" variant="light" icon={<IconPlugConnectedX />} title="Could not connect">
      {result.message}. Check the host, the port and the credentials; the service refuses private and loopback addresses.
    </Alert>
  );
}

/** A "Test the connection" button and its result (or the API's refusal). */
export function ProbeButton({ run, children }: { run: () => Promise<Probe>; children: ReactNode }) {
  const [result, setResult] = useState<Probe>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    setError(null);
    setResult(undefined);
    try {
      setResult(await run());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" onClick={() => void go()} loading={busy}>
          {children}
        </Button>
      </Group>
      <div aria-live="polite">
        <ProbeResult result={result} />
        <ApiErrorAlert error={error} />
      </div>
    </Stack>
  );
}
