import { Modal, Stack, Text, TextInput } from "@mantine/core";
import { UpdateSnapshotBody } from "@burnbox/contracts/src/inbox/snapshots.schemas";
import { DialogActions, ApiErrorAlert } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { notify } from "../../lib/notify";
import { useRebaseline, type Snapshot } from "./api";
import { snapshotsKeys } from "./keys";

const bodyOf = (v: { email_id: string }) => ({ email_id: v.email_id.trim() });

/** Re-baseline (`PUT …/snapshots/{id} {email_id}`): the snapshot's baseline made again from another email, its masks kept. */
export function RebaselineModal({
  snapshot,
  path,
  opened,
  onClose,
}: {
  snapshot: Snapshot;
  path: { orgId: string; teamId: string };
  opened: boolean;
  onClose: () => void;
}) {
  const latest = snapshot.latest_comparison;
  const form = useContractForm(UpdateSnapshotBody, { email_id: latest?.email_id ?? "" }, { toBody: bodyOf });
  const save = useRebaseline(
    { path, snapshotId: snapshot.id },
    {
      invalidates: [snapshotsKeys.all(path.teamId)],
      onSuccess: () => {
        notify(`${snapshot.name}: new baseline saved`);
        onClose();
      },
    },
  );
  return (
    <Modal opened={opened} onClose={onClose} title={`Re-baseline ${snapshot.name}`} size="lg" closeButtonProps={{ "aria-label": "Close" }}>
      <form onSubmit={form.onSubmit((v) => save.mutate(bodyOf(v)))} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            The baseline is made again from this email (after the same masks): later mail is compared with it instead.
            {latest ? " The latest compared mail is filled in." : ""}
          </Text>
          <TextInput label="Email ID" required data-autofocus {...form.getInputProps("email_id")} />
          <ApiErrorAlert error={save.error} title="The baseline was not changed" />
          <DialogActions confirmLabel="Save new baseline" loading={save.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
