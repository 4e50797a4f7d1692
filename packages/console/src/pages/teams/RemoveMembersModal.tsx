import { Modal, Stack, Text } from "@mantine/core";
import { ApiErrorAlert, DialogActions } from "../../components";

/** The confirmation of a removal from the team: one member (named) or the selected ones (counted). */
export function RemoveMembersModal({
  removing,
  emailOf,
  error,
  loading,
  onRemove,
  onClose,
}: {
  removing: string[] | null;
  emailOf: (userId: string) => string;
  error: unknown;
  loading: boolean;
  onRemove: (userIds: string[]) => void;
  onClose: () => void;
}) {
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={removing !== null}
      onClose={onClose}
      title={removing?.length === 1 ? `Remove ${emailOf(removing[0]!)}?` : `Remove ${removing?.length ?? 0} members?`}
    >
      <Stack>
        <Text size="sm">They lose access to the team's inboxes, keys and webhooks; their accounts and org membership stay.</Text>
        <ApiErrorAlert error={error} />
        <DialogActions
          confirmLabel="Remove"
          color="red.9"
          loading={loading}
          onConfirm={() => removing && onRemove(removing)}
          onCancel={onClose}
        />
      </Stack>
    </Modal>
  );
}
