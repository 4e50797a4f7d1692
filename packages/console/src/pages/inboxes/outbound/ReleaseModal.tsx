import { Text } from "@mantine/core";
import { ReleaseEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { useContractForm } from "../../../lib/contract-form";
import { useReleaseEmail, type EmailView } from "../api";
import { splitAddresses } from "./outbound-form";
import { AddressesField } from "./AddressesField";
import { OutboundModal, queuedOptions, type OutboundDialogProps } from "./OutboundModal";

const bodyOf = (v: { to: string }) => ({ to: splitAddresses(v.to) });

/** "Release": the received message as it was, to new recipients (`POST /emails/{id}/release`). */
export function ReleaseModal({ email, ...dialog }: { email: EmailView } & OutboundDialogProps) {
  const form = useContractForm(ReleaseEmailBody, { to: "" }, { toBody: bodyOf });
  const release = useReleaseEmail({ emailId: email.id }, queuedOptions(email.inbox_id, "Release", dialog.onClose));
  return (
    <OutboundModal
      {...dialog}
      title="Release the message"
      onSubmit={form.onSubmit((v) => release.mutate(bodyOf(v)))}
      error={release.error}
      confirmLabel="Release"
      loading={release.isPending}
    >
      <Text size="sm">
        Sends “{email.subject || "(no subject)"}” exactly as it was received, headers and body, with Resent- headers added on top.
      </Text>
      <AddressesField
        form={form}
        field="to"
        label="Release to"
        description="One or more addresses, separated by commas"
        placeholder="qa@example.com"
        required
        data-autofocus
      />
    </OutboundModal>
  );
}
