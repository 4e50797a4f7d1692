import { Group, Modal, Select, Stack, TagsInput, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { ApiErrorAlert, DialogActions } from "../../components";
import { teamKeys } from "./keys";
import { ScopePicker } from "./ScopePicker";
import type { TeamScope } from "./TeamGate";
import { useCreateApiKey } from "./api";

const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "1 year" },
];

/** Create an API key: name, scopes, lifetime, allowed IPs; hands the raw key (shown once) to `onCreated`. */
export function CreateKeyModal({
  scope,
  opened,
  onClose,
  onCreated,
}: {
  scope: TeamScope;
  opened: boolean;
  onClose: () => void;
  onCreated: (key: { name: string; raw_key: string }) => void;
}) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiry, setExpiry] = useState("never");
  const [ips, setIps] = useState<string[]>([]);
  const [problem, setProblem] = useState<{ name?: string; scopes?: string }>({});
  const create = useCreateApiKey({ scopeOrgId: scope.orgId, scopeTeamId: scope.teamId }, { invalidates: [teamKeys.apiKeys(scope.teamId)] });

  const reset = () => {
    setName("");
    setScopes([]);
    setExpiry("never");
    setIps([]);
    setProblem({});
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = { name: name.trim() ? undefined : "Give the key a name", scopes: scopes.length ? undefined : "Pick at least one scope" };
    setProblem(p);
    if (p.name || p.scopes) return;
    create.mutate(
      { name: name.trim(), scopes, allowed_ips: ips, ...(expiry === "never" ? {} : { expires_in: expiry }) },
      {
        onSuccess: (key) => {
          reset();
          onCreated({ name: key.name, raw_key: key.raw_key });
        },
      },
    );
  };

  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={close} title="Create an API key" size="xl">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="What uses it, e.g. “CI signup tests”"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem.name}
            required
            data-autofocus
          />
          <ScopePicker value={scopes} onChange={setScopes} error={problem.scopes} />
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label="Expires"
              data={EXPIRY}
              value={expiry}
              onChange={(v) => setExpiry(v ?? "never")}
              allowDeselect={false}
              miw={160}
            />
            <TagsInput
              label="Allowed IPs"
              description="IP addresses or CIDR ranges, Enter after each; empty: any"
              value={ips}
              onChange={setIps}
              splitChars={[",", " "]}
              miw={220}
            />
          </Group>
          <ApiErrorAlert error={create.error} />
          <DialogActions confirmLabel="Create key" loading={create.isPending} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
