import { Checkbox, Text, Textarea } from "@mantine/core";
import { ReplyEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { useContractForm } from "../../../lib/contract-form";
import { useReplyToEmail, type EmailView } from "../api";
import { bodyParts } from "./outbound-form";
import { HtmlPartField } from "./HtmlPartField";
import { OutboundModal, queuedOptions, type OutboundDialogProps } from "./OutboundModal";

interface Values extends Record<string, unknown> {
  text: string;
  html: string;
  reply_all: boolean;
}
const bodyOf = (v: Values) => ({ ...bodyParts(v), reply_all: v.reply_all });
const reSubject = (s: string) => (/^re:/i.test(s.trim()) ? s.trim() : `Re: ${s.trim()}`);

/** "Reply": from the inbox's address to the mail's Reply-To or From (`POST /emails/{id}/reply`). */
export function ReplyModal({ email, ...dialog }: { email: EmailView } & OutboundDialogProps) {
  const form = useContractForm<Values>(ReplyEmailBody, { text: "", html: "", reply_all: false }, { toBody: bodyOf });
  const reply = useReplyToEmail({ emailId: email.id }, queuedOptions(email.inbox_id, "Reply", dialog.onClose));
  const replyTo = email.headers["reply-to"] || email.from_address || "(no sender)";
  return (
    <OutboundModal
      {...dialog}
      title="Reply"
      onSubmit={form.onSubmit((v) => reply.mutate(bodyOf(v)))}
      error={reply.error}
      confirmLabel="Send reply"
      loading={reply.isPending}
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        <b>From</b> {email.to_address} <b>to</b> {replyTo}
        <br />
        <b>Subject</b> {reSubject(email.subject || "")}
      </Text>
      <Checkbox
        label="Reply to all"
        description="Also to the mail's other recipients, but not this inbox"
        {...form.getInputProps("reply_all", { type: "checkbox" })}
      />
      <Textarea label="Message" autosize minRows={5} maxRows={14} data-autofocus {...form.getInputProps("text")} />
      <HtmlPartField {...form.getInputProps("html")} />
    </OutboundModal>
  );
}
