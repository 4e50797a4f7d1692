import { ConfirmModal } from "../../components";
import type { Snapshot } from "./api";

/** The confirmation before `DELETE …/snapshots/{id}` (the list's row button and the snapshot page's): its baseline and comparisons go too. */
export function DeleteSnapshotModal({
  snapshot,
  remove,
  onClose,
}: {
  snapshot: Pick<Snapshot, "id" | "name">;
  /** the page's `useDeleteSnapshot` mutation, whose success says where to go next */
  remove: { isPending: boolean; error: unknown; mutate: (id: string) => void; reset: () => void };
  onClose: () => void;
}) {
  return (
    <ConfirmModal
      opened
      title={`Delete the snapshot ${snapshot.name}?`}
      confirmLabel="Delete snapshot"
      loading={remove.isPending}
      error={remove.error}
      errorTitle="The snapshot was not deleted"
      focusCancel
      onConfirm={() => remove.mutate(snapshot.id)}
      onClose={() => {
        onClose();
        remove.reset();
      }}
    >
      Its baseline, its pictures and every comparison with it are deleted. A test suite&apos;s matcher saves a new baseline by this name the
      next time it runs.
    </ConfirmModal>
  );
}
