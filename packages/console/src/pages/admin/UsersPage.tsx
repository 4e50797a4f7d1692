import { Badge, Checkbox, Group, Menu, Modal, NumberInput, Radio, Select, Stack, Table, Text } from "@mantine/core";
import { IconSearch, IconUsers } from "@tabler/icons-react";
import { useState } from "react";
import { AdminUpdateUserBody, MigrateAuthBody } from "@burnbox/contracts/src/identity/admin-users.schemas";
import { useContractForm } from "../../lib/contract-form";
import type { components } from "@burnbox/sdk";
import { useUser } from "../../api/session";
import {
  ConfirmModal,
  ApiErrorAlert,
  DialogActions,
  EmptyState,
  ListSearch,
  ListView,
  PageHeader,
  Time,
  useListParams,
} from "../../components";
import { AdminGate } from "./AdminGate";
import { adminKeys } from "./keys";
import { notify } from "../../lib/notify";
import { useUsers, useUpdateUser, useRevokeUserSessions, useSsoProviders, useMigrateUserAuth, useDeleteUser } from "./api";
import { ListTable } from "../../components/ListTable";
import { RowMenu } from "../../components/RowMenu";

type User = components["schemas"]["User"];
type Action = { kind: "cap" | "revoke" | "migrate" | "delete"; user: User };

const TITLE = "Users";

export default function UsersPage() {
  return (
    <AdminGate title={TITLE}>
      <Users />
    </AdminGate>
  );
}

function Users() {
  const params = useListParams({ filters: ["q"] as const });
  const q = params.filters.q ?? "";
  const list = useUsers({ q, params, paramsPerPage: params.perPage });
  const [action, setAction] = useState<Action | null>(null);
  const me = useUser();

  return (
    <>
      <PageHeader title={TITLE} description="Every account on this BurnBox: session caps, sign-out everywhere, sign-in method, deletion." />
      <ListSearch
        params={params}
        filter="q"
        debounce={300}
        label="Search users"
        placeholder="Email or name"
        leftSection={<IconSearch size={16} />}
        maw={360}
        mb="md"
      />
      <ListView
        query={list}
        loading={{ label: "Loading users" }}
        empty={
          <EmptyState title={q ? "No user matches" : "No users"} icon={<IconUsers size={28} stroke={1.5} />}>
            {q ? `No email or name holds “${q}”.` : "Nobody has an account yet."}
          </EmptyState>
        }
        table={{ label: "Users", minWidth: 820 }}
        pagination={{ params, label: "User pages" }}
      >
        {(rows) => (
          <ListTable
            striped
            highlightOnHover
            verticalSpacing="xs"
            aria-label="Users"
            columns={["User", "Sign-in", "Session cap", "Last sign-in", "Joined"]}
            actions
          >
            {rows.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>
                  <Stack gap={0}>
                    <Group gap={6}>
                      <Text size="sm" fw={500}>
                        {u.display_name}
                      </Text>
                      {u.is_system_admin && (
                        <Badge size="xs" variant="light">
                          System admin
                        </Badge>
                      )}
                      {u.id === me.id && (
                        <Badge size="xs" variant="outline" color="gray">
                          You
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {u.email}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>{u.sso_provider ? `SSO (${u.sso_provider})` : "Password"}</Table.Td>
                <Table.Td>{u.max_sessions ?? "Platform default"}</Table.Td>
                <Table.Td>
                  <Time value={u.last_login_at ?? null} />
                </Table.Td>
                <Table.Td>
                  <Time value={u.created_at} />
                </Table.Td>
                <Table.Td>
                  <RowMenu label={`Actions for ${u.email}`} withinPortal>
                    <Menu.Item onClick={() => setAction({ kind: "cap", user: u })}>Set session cap…</Menu.Item>
                    <Menu.Item onClick={() => setAction({ kind: "revoke", user: u })}>Revoke all sessions…</Menu.Item>
                    <Menu.Item onClick={() => setAction({ kind: "migrate", user: u })}>Change sign-in method…</Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color="red" disabled={u.id === me.id} onClick={() => setAction({ kind: "delete", user: u })}>
                      Delete user…
                    </Menu.Item>
                  </RowMenu>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      {action?.kind === "cap" && <SessionCapModal user={action.user} onClose={() => setAction(null)} />}
      {action?.kind === "revoke" && <RevokeModal user={action.user} onClose={() => setAction(null)} />}
      {action?.kind === "migrate" && <MigrateModal user={action.user} onClose={() => setAction(null)} />}
      {action?.kind === "delete" && <DeleteModal user={action.user} onClose={() => setAction(null)} />}
    </>
  );
}

/** The session cap as the request holds it: null for the platform default. */
type CapValues = { use_default: boolean; max_sessions: number | string };
const capBody = (v: CapValues) => ({
  max_sessions: v.use_default ? null : Number(v.max_sessions),
});

/** The sign-in method as the request holds it: a provider only for SSO. */
const migrateBody = (v: { to: "sso" | "password"; provider: string }) =>
  v.to === "sso" ? { to: v.to, provider: v.provider } : { to: v.to };

function SessionCapModal({ user, onClose }: { user: User; onClose: () => void }) {
  const form = useContractForm<CapValues>(
    AdminUpdateUserBody,
    { use_default: user.max_sessions == null, max_sessions: user.max_sessions ?? 5 },
    { toBody: capBody },
  );
  const useDefault = form.getValues().use_default;
  const save = useUpdateUser(
    { userId: user.id },
    {
      invalidates: [adminKeys.usersAll()],
      onSuccess: () => {
        notify(`Session cap of ${user.email} saved`);
        onClose();
      },
    },
  );
  return (
    <Modal opened onClose={onClose} title={`Session cap of ${user.email}`} closeButtonProps={{ "aria-label": "Close" }}>
      <form onSubmit={form.onSubmit((v) => save.mutate(capBody(v).max_sessions))}>
        <Stack>
          <Text size="sm">
            How many sessions this user may hold at once. At the cap, a new sign-in asks which session to end. The platform default is set
            under Platform settings.
          </Text>
          <Checkbox label="Use the platform default" {...form.getInputProps("use_default", { type: "checkbox" })} />
          <NumberInput
            label="Maximum sessions"
            min={1}
            max={1000}
            {...form.getInputProps("max_sessions")}
            disabled={useDefault}
            allowDecimal={false}
          />
          <ApiErrorAlert error={save.error} />
          <DialogActions confirmLabel="Save" loading={save.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

function RevokeModal({ user, onClose }: { user: User; onClose: () => void }) {
  const revoke = useRevokeUserSessions(
    { userId: user.id },
    {
      onSuccess: () => {
        notify(`Every session of ${user.email} was revoked`);
        onClose();
      },
    },
  );
  return (
    <ConfirmModal
      opened
      title="Revoke all sessions?"
      confirmLabel="Revoke sessions"
      loading={revoke.isPending}
      error={revoke.error}
      onConfirm={() => revoke.mutate(undefined)}
      onClose={onClose}
    >
      {user.email} is signed out everywhere at once and must sign in again. Their API keys keep working.
    </ConfirmModal>
  );
}

function MigrateModal({ user, onClose }: { user: User; onClose: () => void }) {
  const form = useContractForm(MigrateAuthBody, { to: user.sso_provider ? "password" : "sso", provider: "" }, { toBody: migrateBody });
  const { to, provider } = form.getValues();
  const providers = useSsoProviders();
  const migrate = useMigrateUserAuth(
    { userId: user.id },
    {
      invalidates: [adminKeys.usersAll()],
      onSuccess: () => {
        notify(`Sign-in method of ${user.email} changed`);
        onClose();
      },
    },
  );
  const options = (providers.data?.data ?? []).map((p) => ({
    value: p.name,
    label: `${p.label} (${p.name})${p.enabled ? "" : " — disabled"}`,
  }));
  return (
    <Modal opened onClose={onClose} title={`Sign-in method of ${user.email}`} closeButtonProps={{ "aria-label": "Close" }}>
      <form onSubmit={form.onSubmit((v) => migrate.mutate(migrateBody(v)))}>
        <Stack>
          <Text size="sm">
            Now: {user.sso_provider ? `single sign-on through ${user.sso_provider}` : "password"}. Changing it signs the user out
            everywhere.
          </Text>
          <Radio.Group label="Sign in with" {...form.getInputProps("to")}>
            <Stack gap="xs" mt="xs">
              <Radio value="sso" label="Single sign-on (the password stops working)" />
              <Radio value="password" label="Password (they set one through “Forgot password”)" />
            </Stack>
          </Radio.Group>
          {to === "sso" && (
            <Select
              label="SSO provider"
              placeholder={options.length ? "Choose a provider" : "No SSO provider yet"}
              data={options}
              {...form.getInputProps("provider")}
              onChange={(v: string | null) => form.setFieldValue("provider", v ?? "")}
              required
            />
          )}
          <ApiErrorAlert error={providers.error ?? migrate.error} />
          <DialogActions
            confirmLabel="Change sign-in method"
            loading={migrate.isPending}
            disabled={to === "sso" && !provider}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteModal({ user, onClose }: { user: User; onClose: () => void }) {
  const remove = useDeleteUser(
    { userId: user.id },
    {
      invalidates: [adminKeys.usersAll()],
      onSuccess: () => {
        notify(`${user.email} was deleted`);
        onClose();
      },
    },
  );
  return (
    <ConfirmModal
      opened
      title="Delete this user?"
      confirmLabel="Delete user"
      loading={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(undefined)}
      onClose={onClose}
    >
      {user.email} ({user.display_name}) loses their account, their sessions and the API keys they created. This cannot be undone.
    </ConfirmModal>
  );
}
