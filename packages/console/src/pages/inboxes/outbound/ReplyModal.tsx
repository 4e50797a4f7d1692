import { Checkbox, Modal, Stack, Text, Textarea } from "@mantine/core";
import { ReplyEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { DialogActions } from "../../../components";
import { useContractForm } from "../../../lib/contract-form";
import { notify } from "../../../lib/notify";
import { keys, useReplyToEmail, type EmailView } from "../api";
import { bodyParts } from "./outbound-form";
import { HtmlPartField } from "./HtmlPartField";
import { OutboundError } from "./OutboundError";

interface Values extends Record<string, unknown> {
  text: string;
  html: string;
  reply_all: boolean;
}
const bodyOf = (v: Values) => ({ ...bodyParts(v), reply_all: v.reply_all });
const reSubject = (s: string) => (/^re:/i.test(s.trim()) ? s.trim() : `Re: ${s.trim()}`);

/** "Reply": from the inbox's address to the mail's Reply-To or From (`POST /emails/{id}/reply`). */
export function ReplyModal({
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
  const form = useContractForm<Values>(ReplyEmailBody, { text: "", html: "", reply_all: false }, { toBody: bodyOf });
  const reply = useReplyToEmail(
    { emailId: email.id },
    {
      invalidates: [keys.outbound(email.inbox_id)],
      onSuccess: (r) => {
        notify(`Reply queued (${r.message_id})`);
        onClose();
      },
    },
  );
  const replyTo = email.headers["reply-to"] || email.from_address || "(no sender)";
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExitTransitionEnd}
      title="Reply"
      size="lg"
      closeButtonProps={{ "aria-label": "Close" }}
    >
      <form onSubmit={form.onSubmit((v) => reply.mutate(bodyOf(v)))} noValidate>
        <Stack gap="sm">
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
          <OutboundError error={reply.error} />
          <DialogActions confirmLabel="Send reply" loading={reply.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
