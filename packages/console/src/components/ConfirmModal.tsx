import { Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { DialogActions } from "./DialogActions";

/**
 * Asks before something that cannot be undone; shows the API's message when it fails. `children`
 * is the sentence that says what happens; `details` what goes under it (what is removed, a
 * "force" switch, a placeholder while the figures load).
 */
export function ConfirmModal({
  opened,
  title,
  children,
  details,
  confirmLabel,
  color = "red.9",
  loading,
  disabled,
  error,
  errorTitle,
  focusCancel,
  gap,
  onConfirm,
  onClose,
  onExitTransitionEnd,
}: {
  opened: boolean;
  title: string;
  children?: ReactNode;
  details?: ReactNode;
  confirmLabel: string;
  color?: string;
  loading?: boolean;
  /** the action waits (for the figures it acts on, for a choice) */
  disabled?: boolean;
  error?: unknown;
  /** the error alert's heading ("The inbox was not deleted"); by the status by default */
  errorTitle?: string;
  /** Cancel takes the focus, so a stray Enter does not confirm */
  focusCancel?: boolean;
  gap?: string;
  onConfirm: () => void;
  onClose: () => void;
  onExitTransitionEnd?: () => void;
}) {
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExitTransitionEnd}
      title={title}
    >
      <Stack gap={gap}>
        {children && <Text size="sm">{children}</Text>}
        {details}
        <ApiErrorAlert error={error} title={errorTitle} />
        <DialogActions
          confirmLabel={confirmLabel}
          color={color}
          loading={loading}
          disabled={disabled}
          onConfirm={onConfirm}
          onCancel={onClose}
          focusCancel={focusCancel}
        />
      </Stack>
    </Modal>
  );
}
