import { Modal, Select, Stack, Text } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { useTransferTargets } from "../api/transfer";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { DialogActions } from "./DialogActions";

/** A system admin's move of a team or domain to another org: pick the org (`GET /admin/orgs`), read what it drops, confirm. */
export function TransferModal({
  opened,
  title,
  fromOrgId,
  children,
  loading,
  error,
  onTransfer,
  onClose,
}: {
  opened: boolean;
  title: string;
  fromOrgId: string;
  children: ReactNode;
  loading?: boolean;
  error?: unknown;
  onTransfer: (targetOrgId: string) => void;
  onClose: () => void;
}) {
  const [search, setSearch] = useState("");
  const [target, setTarget] = useState<string | null>(null);
  const orgs = useTransferTargets(search, opened);
  const options = (orgs.data?.data ?? []).filter((o) => o.id !== fromOrgId).map((o) => ({ value: o.id, label: `${o.name} (${o.slug})` }));
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        <Select
          label="Target organization"
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={options}
          value={target}
          onChange={setTarget}
          nothingFoundMessage={orgs.isPending ? "Loading…" : "No other organization"}
        />
        <ApiErrorAlert error={orgs.error ?? error} />
        <DialogActions
          confirmLabel="Transfer"
          color="orange.9"
          disabled={!target}
          loading={loading}
          onConfirm={() => target && onTransfer(target)}
          onCancel={onClose}
        />
      </Stack>
    </Modal>
  );
}
