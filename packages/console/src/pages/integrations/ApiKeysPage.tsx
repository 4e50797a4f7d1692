import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Menu,
  Skeleton,
  Switch,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { IconDots, IconKey, IconPlus, IconRefresh, IconTrash, IconPlayerPause, IconPlayerPlay } from "@tabler/icons-react";
import { useState } from "react";
import {
  ApiErrorAlert,
  ConfirmModal,
  EmptyState,
  ListPagination,
  PageHeader,
  Time,
  useClampedPage,
  useListParams,
  useNow,
  TableScroll,
} from "../../components";
import { CreateKeyModal } from "./CreateKeyModal";
import { keyStatus, STATUS_LABEL, type ApiKey } from "./key-status";
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
  const q = useApiKeys({ scopeTeamId: scope.teamId, list, listPerPage: list.perPage, listFilters: list.filters, path, includeRevoked });
  const now = useNow();
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
        <Alert
          role="status"
          color="teal"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
          mb="sm"
        >
          {notice}
        </Alert>
      )}
      <ApiErrorAlert error={q.error ?? mutationError} />
      {q.isPending ? (
        <Skeleton h={160} aria-label="Loading API keys" />
      ) : rows.length === 0 && !q.error ? (
        <EmptyState
          title={includeRevoked ? "No API keys" : "No active API keys"}
          icon={<IconKey size={28} stroke={1.5} />}
          action={<Button onClick={() => setCreating(true)}>Create key</Button>}
        >
          Create a key for your test suite or CI: pick only the scopes it needs. The key is shown once, when you create it.
        </EmptyState>
      ) : (
        <TableScroll label="API keys" minWidth={860}>
          <Table striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select every key on this page"
                    checked={allSelected}
                    indeterminate={someSelected && !allSelected}
                    disabled={selectable.length === 0}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(selectable.map((k) => k.id)))}
                  />
                </Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Requests</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((key) => {
                const status = keyStatus(key, now);
                return (
                  <Table.Tr key={key.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${key.name}`}
                        checked={selected.has(key.id)}
                        disabled={status === "revoked"}
                        onChange={() => toggle(key.id)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text fw={500}>{key.name}</Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {key.key_prefix}…
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Scopes scopes={key.scopes} />
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_LABEL[status].color} variant="dot">
                        {STATUS_LABEL[status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{key.request_count.toLocaleString()}</Table.Td>
                    <Table.Td>
                      {key.last_used_at ? (
                        <>
                          <Time value={key.last_used_at} />
                          {key.last_used_ip && (
                            <Text size="xs" c="dimmed" ff="monospace">
                              {key.last_used_ip}
                            </Text>
                          )}
                        </>
                      ) : (
                        <Text size="sm" c="dimmed">
                          never
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{key.expires_at ? <Time value={key.expires_at} mode="absolute" /> : "never"}</Table.Td>
                    <Table.Td>
                      {status !== "revoked" && (
                        <KeyActions
                          apiKey={key}
                          onRotate={() => setPending({ kind: "rotate", key })}
                          onToggle={() => toggleActive.mutate(key)}
                          onRevoke={() => setPending({ kind: "revoke", key })}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <ListPagination params={list} envelope={q.data} label="API key pages" />

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
        opened={pending?.kind === "rotate"}
        title="Rotate this key?"
        confirmLabel="Rotate key"
        color="orange"
        loading={rotate.isPending}
        error={rotate.error}
        onConfirm={() => pending?.kind === "rotate" && rotate.mutate(pending.key)}
        onClose={() => {
          rotate.reset();
          setPending(null);
        }}
      >
        {pending?.kind === "rotate" &&
          `${pending.key.name} gets a new secret, shown once. The current one stops working at once, with no overlap.`}
      </ConfirmModal>
      <ConfirmModal
        opened={pending?.kind === "revoke"}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        loading={revoke.isPending}
        error={revoke.error}
        onConfirm={() => pending?.kind === "revoke" && revoke.mutate(pending.key)}
        onClose={() => {
          revoke.reset();
          setPending(null);
        }}
      >
        {pending?.kind === "revoke" &&
          `${pending.key.name} stops working for good. This cannot be undone; disable the key instead to pause it.`}
      </ConfirmModal>
      <ConfirmModal
        opened={pending?.kind === "bulk"}
        title={`Revoke ${pending?.kind === "bulk" ? pending.ids.length : 0} keys?`}
        confirmLabel="Revoke keys"
        loading={bulk.isPending}
        error={bulk.error}
        onConfirm={() => pending?.kind === "bulk" && bulk.mutate(pending.ids)}
        onClose={() => {
          bulk.reset();
          setPending(null);
        }}
      >
        The selected keys stop working for good. This cannot be undone.
      </ConfirmModal>
    </>
  );
}

function Scopes({ scopes }: { scopes: string[] }) {
  const shown = scopes.slice(0, 3);
  const rest = scopes.length - shown.length;
  return (
    <Group gap={4} wrap="wrap" maw={280}>
      {shown.map((s) => (
        <Badge key={s} variant="outline" color="gray" tt="none" size="sm">
          {s}
        </Badge>
      ))}
      {rest > 0 && (
        <Tooltip label={scopes.slice(3).join(", ")} withArrow multiline maw={320}>
          <Badge variant="light" color="gray" size="sm" tabIndex={0} aria-label={`and ${rest} more: ${scopes.slice(3).join(", ")}`}>
            +{rest}
          </Badge>
        </Tooltip>
      )}
      {scopes.length === 0 && (
        <Text size="sm" c="dimmed">
          none
        </Text>
      )}
    </Group>
  );
}

function KeyActions({
  apiKey,
  onRotate,
  onToggle,
  onRevoke,
}: {
  apiKey: ApiKey;
  onRotate: () => void;
  onToggle: () => void;
  onRevoke: () => void;
}) {
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${apiKey.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconRefresh size={16} />} onClick={onRotate}>
          Rotate
        </Menu.Item>
        <Menu.Item leftSection={apiKey.is_active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />} onClick={onToggle}>
          {apiKey.is_active ? "Disable" : "Enable"}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onRevoke}>
          Revoke
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
