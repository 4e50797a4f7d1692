import { SimpleGrid, Text, TextInput, Textarea } from "@mantine/core";
import { SendEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { useContractForm } from "../../../lib/contract-form";
import { useSendFromInbox, type Inbox } from "../api";
import { bodyParts, splitAddresses } from "./outbound-form";
import { AddressesField } from "./AddressesField";
import { HtmlPartField } from "./HtmlPartField";
import { OutboundModal, queuedOptions, type OutboundDialogProps } from "./OutboundModal";

interface Values extends Record<string, unknown> {
  to: string;
  cc: string;
  subject: string;
  text: string;
  html: string;
}
const bodyOf = (v: Values) => {
  const cc = splitAddresses(v.cc);
  return { to: splitAddresses(v.to), ...(cc.length > 0 ? { cc } : {}), subject: v.subject, ...bodyParts(v) };
};

/** "Compose": a new message from the inbox's address (`POST /inboxes/{id}/send`). */
export function ComposeModal({ inbox, ...dialog }: { inbox: Inbox } & OutboundDialogProps) {
  const form = useContractForm<Values>(SendEmailBody, { to: "", cc: "", subject: "", text: "", html: "" }, { toBody: bodyOf });
  const send = useSendFromInbox({ inboxId: inbox.id }, queuedOptions(inbox.id, "Message", dialog.onClose));
  return (
    <OutboundModal
      {...dialog}
      title="New message"
      onSubmit={form.onSubmit((v) => send.mutate(bodyOf(v)))}
      error={send.error}
      confirmLabel="Send"
      loading={send.isPending}
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        <b>From</b> {inbox.full_address}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <AddressesField form={form} field="to" label="To" description="Addresses, separated by commas" required data-autofocus />
        <AddressesField form={form} field="cc" label="Cc" description="Optional" />
      </SimpleGrid>
      <TextInput label="Subject" {...form.getInputProps("subject")} />
      <Textarea label="Message" autosize minRows={5} maxRows={14} {...form.getInputProps("text")} />
      <HtmlPartField {...form.getInputProps("html")} />
    </OutboundModal>
  );
}
