import { ConfirmModal } from "../../components";

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
    <ConfirmModal
      opened={removing !== null}
      title={removing?.length === 1 ? `Remove ${emailOf(removing[0]!)}?` : `Remove ${removing?.length ?? 0} members?`}
      confirmLabel="Remove"
      loading={loading}
      error={error}
      onConfirm={() => removing && onRemove(removing)}
      onClose={onClose}
    >
      They lose access to the team's inboxes, keys and webhooks; their accounts and org membership stay.
    </ConfirmModal>
  );
}
