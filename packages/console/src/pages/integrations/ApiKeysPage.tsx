import { Button, Group, Switch } from "@mantine/core";
import { IconKey, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { ConfirmModal, EmptyState, PageHeader, useClampedPage, useListParams, ListView, Notice } from "../../components";
import { ApiKeyTable } from "./ApiKeyTable";
import { CreateKeyModal } from "./CreateKeyModal";
import { type ApiKey } from "./key-status";
import { teamKeys } from "./keys";
import { SecretOnceModal } from "./SecretOnceModal";
import { TeamGate, type TeamScope } from "./TeamGate";
import { useApiKeys, useSetApiKeyActive, useRotateApiKey, useRevokeApiKey, useBulkRevokeApiKeys } from "./api";

export default function ApiKeysPage() {
  return <TeamGate title="API keys">{(scope) => <ApiKeys scope={scope} />}</TeamGate>;
}

type Pending = { kind: "rotate" | "revoke"; key: ApiKey } | { kind: "bulk"; ids: string[] } | null;

function ApiKeys({ scope }: { scope: TeamScope }) {
  const path = { orgId: scope.orgId, teamId: scope.teamId };
  const list = useListParams({ filters: ["revoked"] as const });
  const includeRevoked = list.filters.revoked === "shown";
  const q = useApiKeys({ scope, page: list.page, perPage: list.perPage, includeRevoked });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string; note: string } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const invalidates = [teamKeys.apiKeys(scope.teamId)];

  const toggleActive = useSetApiKeyActive(
    { path },
    { invalidates, onSuccess: (k) => setNotice(`${k.name} is ${k.is_active ? "enabled" : "disabled"}.`) },
  );
  const rotate = useRotateApiKey(
    { path },
    {
      invalidates,
      onSuccess: (k) => {
        setPending(null);
        setSecret({
          title: "Key rotated",
          value: k.raw_key,
          note: `The old secret of ${k.name} stopped working just now. Put this one where the old one was.`,
        });
      },
    },
  );
  const revoke = useRevokeApiKey(
    { path },
    {
      invalidates,
      onSuccess: (_r, key) => {
        setPending(null);
        setNotice(`${key.name} is revoked.`);
        setSelected((s) => new Set([...s].filter((id) => id !== key.id)));
      },
    },
  );
  const bulk = useBulkRevokeApiKeys(
    { path },
    {
      invalidates,
      onSuccess: (r) => {
        setPending(null);
        setSelected(new Set());
        setNotice(
          `Revoked ${r.revoked} ${r.revoked === 1 ? "key" : "keys"}.` +
            (r.skipped.length ? ` ${r.skipped.length} skipped (already revoked or not found).` : ""),
        );
      },
    },
  );

  useClampedPage(list, q.data);
  const rows = q.data?.data ?? [];
  const selectable = rows.filter((k) => !k.revoked_at);
  const allSelected = selectable.length > 0 && selectable.every((k) => selected.has(k.id));
  const someSelected = selectable.some((k) => selected.has(k.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const mutationError = toggleActive.error;

  // one confirmation for the three actions that cannot be undone: its words and its call by what is pending
  const confirm =
    pending?.kind === "rotate"
      ? {
          title: "Rotate this key?",
          confirmLabel: "Rotate key",
          color: "orange",
          text: `${pending.key.name} gets a new secret, shown once. The current one stops working at once, with no overlap.`,
          mutation: rotate,
          run: () => rotate.mutate(pending.key),
        }
      : pending?.kind === "revoke"
        ? {
            title: "Revoke this key?",
            confirmLabel: "Revoke key",
            color: undefined,
            text: `${pending.key.name} stops working for good. This cannot be undone; disable the key instead to pause it.`,
            mutation: revoke,
            run: () => revoke.mutate(pending.key),
          }
        : {
            title: `Revoke ${pending?.kind === "bulk" ? pending.ids.length : 0} keys?`,
            confirmLabel: "Revoke keys",
            color: undefined,
            text: "The selected keys stop working for good. This cannot be undone.",
            mutation: bulk,
            run: () => pending?.kind === "bulk" && bulk.mutate(pending.ids),
          };
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys act as you, within their scopes, on the team ${scope.teamName}.`}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create key
          </Button>
        }
      />
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Switch
          label="Show revoked keys"
          checked={includeRevoked}
          onChange={(e) => list.setFilter("revoked", e.currentTarget.checked ? "shown" : undefined)}
        />
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          disabled={selected.size === 0}
          onClick={() => setPending({ kind: "bulk", ids: [...selected] })}
        >
          Revoke selected{selected.size ? ` (${selected.size})` : ""}
        </Button>
      </Group>
      {notice && (
        <Notice onClose={() => setNotice(null)} mb="sm">
          {notice}
        </Notice>
      )}
      <ListView
        query={q}
        error={q.error ?? mutationError}
        loading={{ label: "Loading API keys", height: 160 }}
        empty={
          <EmptyState
            title={includeRevoked ? "No API keys" : "No active API keys"}
            icon={<IconKey size={28} stroke={1.5} />}
            action={<Button onClick={() => setCreating(true)}>Create key</Button>}
          >
            Create a key for your test suite or CI: pick only the scopes it needs. The key is shown once, when you create it.
          </EmptyState>
        }
        pagination={{ params: list, label: "API key pages" }}
      >
        {(rows) => (
          <ApiKeyTable
            rows={rows}
            selection={{ selected, toggle, allSelected, someSelected, selectable, setSelected }}
            onRotate={(key) => setPending({ kind: "rotate", key })}
            onToggle={(key) => toggleActive.mutate(key)}
            onRevoke={(key) => setPending({ kind: "revoke", key })}
          />
        )}
      </ListView>

      <CreateKeyModal
        scope={scope}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          setCreating(false);
          setSecret({
            title: "API key created",
            value: k.raw_key,
            note: `This is the key ${k.name}. Send it as “Authorization: Bearer <key>”.`,
          });
        }}
      />
      <SecretOnceModal title={secret?.title ?? ""} label="API key" value={secret?.value ?? null} onClose={() => setSecret(null)}>
        {secret?.note}
      </SecretOnceModal>
      <ConfirmModal
        opened={pending !== null}
        title={confirm.title}
        confirmLabel={confirm.confirmLabel}
        color={confirm.color}
        loading={confirm.mutation.isPending}
        error={confirm.mutation.error}
        onConfirm={confirm.run}
        onClose={() => {
          confirm.mutation.reset();
          setPending(null);
        }}
      >
        {confirm.text}
      </ConfirmModal>
    </>
  );
}
