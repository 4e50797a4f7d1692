import { Modal, Stack, Text, TextInput } from "@mantine/core";
import { ReleaseEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { DialogActions } from "../../../components";
import { useContractForm } from "../../../lib/contract-form";
import { notify } from "../../../lib/notify";
import { keys, useReleaseEmail, type EmailView } from "../api";
import { listError, splitAddresses } from "./outbound-form";
import { OutboundError } from "./OutboundError";

const bodyOf = (v: { to: string }) => ({ to: splitAddresses(v.to) });

/** "Release": the received message as it was, to new recipients (`POST /emails/{id}/release`). */
export function ReleaseModal({
  email,
  opened,
  onClose,
  onExitTransitionEnd,
}: {
  email: EmailView;
  opened: boolean;
  onClose: () => void;
  onExitTransitionEnd: () => void;
}) {
  const form = useContractForm(ReleaseEmailBody, { to: "" }, { toBody: bodyOf });
  const release = useReleaseEmail(
    { emailId: email.id },
    {
      invalidates: [keys.outbound(email.inbox_id)],
      onSuccess: (r) => {
        notify(`Release queued (${r.message_id})`);
        onClose();
      },
    },
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExitTransitionEnd}
      title="Release the message"
      size="lg"
      closeButtonProps={{ "aria-label": "Close" }}
    >
      <form onSubmit={form.onSubmit((v) => release.mutate(bodyOf(v)))} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            Sends “{email.subject || "(no subject)"}” exactly as it was received, headers and body, with Resent- headers added on top.
          </Text>
          <TextInput
            label="Release to"
            description="One or more addresses, separated by commas"
            placeholder="qa@example.com"
            required
            data-autofocus
            {...form.getInputProps("to")}
            error={listError(form.errors, "to")}
          />
          <OutboundError error={release.error} />
          <DialogActions confirmLabel="Release" loading={release.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
