import { Modal, Stack } from "@mantine/core";
import type { FormEventHandler, ReactNode } from "react";
import { DialogActions } from "../../../components";
import { notify } from "../../../lib/notify";
import { keys } from "../api";
import { OutboundError } from "./OutboundError";

/** What Reply, Release and Compose each open with: the dialog's own props from `OutboundButtons`. */
export interface OutboundDialogProps {
  opened: boolean;
  onClose: () => void;
  onExitTransitionEnd: () => void;
}

/**
 * The mutation options of a message going out from `inboxId`: its "Sent mail" log is read again,
 * the queued message's id is told ("Reply queued (<id>)"), and the dialog closes.
 */
export const queuedOptions = (inboxId: string, what: string, onClose: () => void) => ({
  invalidates: [keys.outbound(inboxId)],
  onSuccess: (r: { message_id: string }) => {
    notify(`${what} queued (${r.message_id})`);
    onClose();
  },
});

/**
 * The dialog of Reply, Release and Compose: a form the contract checks (no browser validation),
 * its fields (`children`), the refused send's error, then Cancel and the send button.
 */
export function OutboundModal({
  opened,
  onClose,
  onExitTransitionEnd,
  title,
  onSubmit,
  error,
  confirmLabel,
  loading,
  children,
}: OutboundDialogProps & {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  error: unknown;
  confirmLabel: string;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExitTransitionEnd}
      title={title}
      size="lg"
      closeButtonProps={{ "aria-label": "Close" }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {children}
          <OutboundError error={error} />
          <DialogActions confirmLabel={confirmLabel} loading={loading} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
