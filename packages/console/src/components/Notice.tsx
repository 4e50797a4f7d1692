import { Alert } from "@mantine/core";
import type { ReactNode } from "react";

/** What an action did, said politely (a status, not an alert) above the list, until dismissed. */
export function Notice({
  title,
  children,
  onClose,
  mb = "sm",
}: {
  title?: ReactNode;
  children?: ReactNode;
  onClose: () => void;
  mb?: string;
}) {
  return (
    <Alert role="status" color="teal" variant="light" withCloseButton closeButtonLabel="Dismiss" onClose={onClose} mb={mb} title={title}>
      {children}
    </Alert>
  );
}
