import { Alert, List } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import { BurnBoxError } from "@burnbox/sdk";

const TITLES: Record<number, string> = {
  400: "Please check the form",
  401: "Please sign in again",
  403: "Not allowed",
  404: "Not found",
  409: "Conflict",
  423: "Locked",
  429: "Too many requests",
};

/** The API's own message from the error envelope (`{error, code, details?}`), with the fields it names. */
export function ApiErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e = error instanceof BurnBoxError ? error : undefined;
  const details = e ? detailsOf(e.body) : [];
  const heading = title ?? (e ? (TITLES[e.status] ?? (e.status >= 500 ? "The server failed" : "Request failed")) : "Something went wrong");
  const message = e?.retryAfter
    ? `${e.message} (try again in ${e.retryAfter} s)`
    : error instanceof Error
      ? error.message
      : "Unexpected error.";
  return (
    <Alert role="alert" color="red" variant="light" icon={<IconAlertCircle />} title={heading}>
      {message}
      {details.length > 0 && (
        <List size="sm" mt="xs">
          {details.map((d) => (
            <List.Item key={`${d.path}:${d.message}`}>{d.path ? `${d.path}: ${d.message}` : d.message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function detailsOf(body: unknown): { path: string; message: string }[] {
  const d = body && typeof body === "object" ? (body as { details?: unknown }).details : undefined;
  if (!Array.isArray(d)) return [];
  return d
    .filter(
      (x): x is { path?: unknown; message: unknown } =>
        !!x && typeof x === "object" && typeof (x as { message?: unknown }).message === "string",
    )
    .map((x) => ({ path: typeof x.path === "string" ? x.path : "", message: x.message as string }));
}
