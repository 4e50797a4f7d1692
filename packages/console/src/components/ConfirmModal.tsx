import { Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { DialogActions } from "./DialogActions";

/** Asks before something that cannot be undone; shows the API's message when it fails. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  color = "red.9",
  loading,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  loading?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        <ApiErrorAlert error={error} />
        <DialogActions confirmLabel={confirmLabel} color={color} loading={loading} onConfirm={onConfirm} onCancel={onClose} />
      </Stack>
    </Modal>
  );
}
