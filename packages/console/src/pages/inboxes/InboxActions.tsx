import { Button, Modal, Select, Stack } from "@mantine/core";
import { useEffect, useState } from "react";
import { DialogActions, ConfirmModal } from "../../components";
import { useDeleteInbox, useExtendInbox, useMyDomains, type Inbox } from "./api";
import { humanDuration, parseDuration, ttlPresets } from "../../lib/duration";
import { ApiError, useAbsolute } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { lazySchema } from "../../lib/lazy-schema";

// the rows are on the first signed-in page: zod comes with the schema when a dialog opens
const extendInboxBody = lazySchema(() => import("@burnbox/contracts/src/inbox/inboxes.schemas").then((m) => m.ExtendInboxBody));
const extendBody = (v: { duration: string }) => (v.duration ? { duration: v.duration } : {});

/**
 * A row's dialog that exists only while it is shown or fading out: a closed Mantine Modal still
 * renders its portal into <body>, its providers and its hooks, two of them on every row of the list
 * (most of the list's first render). Opened a frame after it is mounted, so it fades in as before.
 */
function useRowDialog() {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  return {
    mounted,
    opened,
    open: () => {
      setMounted(true);
      requestAnimationFrame(() => setOpened(true));
    },
    close: () => setOpened(false),
    unmount: () => setMounted(false),
  };
}

interface DialogProps {
  inbox: Inbox;
  opened: boolean;
  onClose: () => void;
  onExitTransitionEnd: () => void;
}

/** Extend: a new expiry of now + duration (default: the inbox's own TTL), never past created_at + the maximum TTL. */
export function ExtendInboxButton({ inbox, size = "xs" }: { inbox: Inbox; size?: "xs" | "sm" }) {
  const dialog = useRowDialog();
  return (
    <>
      <Button size={size} variant="light" onClick={dialog.open} aria-label={`Extend ${inbox.full_address}`}>
        Extend
      </Button>
      {dialog.mounted ? (
        <ExtendDialog inbox={inbox} opened={dialog.opened} onClose={dialog.close} onExitTransitionEnd={dialog.unmount} />
      ) : null}
    </>
  );
}

function ExtendDialog({ inbox, opened, onClose, onExitTransitionEnd }: DialogProps) {
  const form = useContractForm(extendInboxBody.schema, { duration: "" }, { toBody: extendBody });
  useEffect(() => void extendInboxBody.ready(), []);
  const extend = useExtendInbox();
  const domains = useMyDomains();
  const absolute = useAbsolute();
  const assignment = domains.data?.find((d) => d.id === inbox.domain_assignment_id);
  const maxMs = assignment ? (parseDuration(assignment.max_ttl) ?? 86_400_000) : 86_400_000;
  const latest = new Date(new Date(inbox.created_at).getTime() + maxMs).toISOString();
  const close = () => {
    onClose();
    extend.reset();
  };
  return (
    <>
      <Modal
        opened={opened}
        onClose={close}
        onExitTransitionEnd={onExitTransitionEnd}
        title={`Extend ${inbox.full_address}`}
        size="md"
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <form
          onSubmit={extendInboxBody.submit(form.onSubmit((v) => extend.mutate({ id: inbox.id, ...extendBody(v) }, { onSuccess: close })))}
        >
          <Stack gap="sm">
            <Select
              label="Keep it for"
              description={`From now. It cannot live past ${absolute(latest)} (${humanDuration(maxMs)} after it was created).`}
              data={[{ value: "", label: "Its own time to live again" }, ...ttlPresets(maxMs)]}
              {...form.getInputProps("duration")}
              onChange={(v: string | null) => form.setFieldValue("duration", v ?? "")}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-autofocus
            />
            <ApiError error={extend.error} title="The inbox was not extended" />
            <DialogActions confirmLabel="Extend" loading={extend.isPending} onCancel={close} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** Delete after a confirmation: the inbox, its mail and its files. */
export function DeleteInboxButton({ inbox, onDeleted, size = "xs" }: { inbox: Inbox; onDeleted?: () => void; size?: "xs" | "sm" }) {
  const dialog = useRowDialog();
  return (
    <>
      <Button size={size} variant="light" color="red" onClick={dialog.open} aria-label={`Delete ${inbox.full_address}`}>
        Delete
      </Button>
      {dialog.mounted ? (
        <DeleteDialog
          inbox={inbox}
          opened={dialog.opened}
          onClose={dialog.close}
          onExitTransitionEnd={dialog.unmount}
          onDeleted={onDeleted}
        />
      ) : null}
    </>
  );
}

function DeleteDialog({ inbox, opened, onClose, onExitTransitionEnd, onDeleted }: DialogProps & { onDeleted?: () => void }) {
  const del = useDeleteInbox();
  const close = () => {
    onClose();
    del.reset();
  };
  return (
    <>
      <ConfirmModal
        opened={opened}
        onClose={close}
        onExitTransitionEnd={onExitTransitionEnd}
        title="Delete this inbox?"
        gap="sm"
        confirmLabel="Delete inbox"
        loading={del.isPending}
        error={del.error}
        errorTitle="The inbox was not deleted"
        onConfirm={() => del.mutate(inbox.id, { onSuccess: () => (close(), onDeleted?.()) })}
        focusCancel
      >
        <b>{inbox.full_address}</b> and its {inbox.email_count} {inbox.email_count === 1 ? "email" : "emails"} will be removed for good.
        Mail sent to it afterwards is refused.
      </ConfirmModal>
    </>
  );
}
