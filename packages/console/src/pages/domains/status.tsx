import { Badge } from "@mantine/core";
import type { components } from "@burnbox/sdk";

export type Domain = components["schemas"]["Domain"];

export const STATUS: Record<Domain["status"], { label: string; color: string }> = {
  verified: { label: "Verified", color: "teal" },
  partially_verified: { label: "Partially verified", color: "yellow" },
  pending_verification: { label: "Not checked yet", color: "gray" },
  failed: { label: "Failed", color: "red" },
};

export function DomainStatus({ status }: { status: Domain["status"] }) {
  const s = STATUS[status];
  return (
    <Badge color={s.color} variant="light">
      {s.label}
    </Badge>
  );
}

/** One check's result: passed, failed, or (null) not checked. */
export function CheckResult({ ok, what }: { ok: boolean | null | undefined; what: string }) {
  if (ok === null || ok === undefined)
    return (
      <Badge color="gray" variant="outline" aria-label={`${what}: not checked`}>
        not checked
      </Badge>
    );
  return (
    <Badge color={ok ? "teal" : "red"} variant="light" aria-label={`${what}: ${ok ? "found" : "missing"}`}>
      {ok ? "found" : "missing"}
    </Badge>
  );
}
