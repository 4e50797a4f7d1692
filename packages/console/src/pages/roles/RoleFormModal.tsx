import { workspaceKeys } from "../../api/keys";
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from "@mantine/core";
import { useState } from "react";
import type { components } from "@burnbox/sdk";
import { CreateRoleBody, TEAM_PERMISSION_KEY, UpdateRoleBody } from "@burnbox/contracts/src/tenancy/roles.schemas";
import { useContractForm } from "../../lib/contract-form";
import { ApiErrorAlert, DialogActions } from "../../components";
import { rolesKeys } from "./keys";
import { useCreateRole, useUpdateRole } from "./api";

export type Role = components["schemas"]["Role"];
type Catalog = components["schemas"]["RolesCatalog"];

type RoleValues = {
  scope: "org" | "team";
  value: string;
  label: string;
  description: string;
  rank: number | string;
  permissions: string[];
};
const commonOf = (v: RoleValues) => ({ label: v.label.trim(), description: v.description.trim(), permissions: v.permissions });
const createBodyOf = (v: RoleValues) => ({
  ...commonOf(v),
  scope: v.scope,
  value: v.value.trim(),
  rank: typeof v.rank === "number" ? v.rank : Number(v.rank),
});

/** Create (system admin, `POST /admin/roles`) or edit (`PATCH /admin/roles/:id`) a custom role. */
export function RoleFormModal({
  role,
  catalog,
  onClose,
  onSaved,
}: {
  role: Role | null;
  catalog: Catalog;
  onClose: () => void;
  onSaved: (role: Role, created: boolean) => void;
}) {
  const form = useContractForm<RoleValues>(
    role ? UpdateRoleBody : CreateRoleBody,
    {
      scope: role?.scope ?? "team",
      value: role?.value ?? "",
      label: role?.label ?? "",
      description: role?.description ?? "",
      rank: role?.rank ?? 15,
      permissions: role?.permissions ?? [],
    },
    { toBody: (v) => (role ? commonOf(v) : createBodyOf(v)) },
  );
  const { scope, permissions } = form.getValues();
  const setPermissions = (ps: string[]) => form.setFieldValue("permissions", ps);
  const [newKey, setNewKey] = useState("");
  const known = scope === "org" ? catalog.org_permissions : catalog.team_permissions;
  const topRank = Math.max(...(scope === "org" ? catalog.org_roles : catalog.team_roles).filter((r) => r.is_system).map((r) => r.rank));
  const extra = permissions.filter((p) => !known.some((k) => k.key === p));
  const invalidates = [rolesKeys.catalog(), ["teams", "roles"], ["team", "permissions"], workspaceKeys.roles()];
  const create = useCreateRole({
    invalidates,
    onSuccess: (r) => onSaved(r, true),
  });
  const update = useUpdateRole({ roleId: role?.id }, { invalidates, onSuccess: (r) => onSaved(r, false) });
  const toggle = (key: string) => setPermissions(permissions.includes(key) ? permissions.filter((p) => p !== key) : [...permissions, key]);
  const keyOk = TEAM_PERMISSION_KEY.test(newKey.trim());
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened
      onClose={onClose}
      title={role ? `Edit ${role.label}` : "Create a custom role"}
      size="xl"
    >
      <form onSubmit={form.onSubmit((v) => (role ? update.mutate(commonOf(v)) : create.mutate(createBodyOf(v))))}>
        <Stack>
          {!role && (
            <SegmentedControl
              aria-label="Scope"
              data={[
                { value: "team", label: "Team role" },
                { value: "org", label: "Organization role" },
              ]}
              value={scope}
              onChange={(v) => form.setValues({ scope: v, permissions: [] })}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Key"
              description="Lower case letters, digits and _; fixed once created."
              required
              disabled={role !== null}
              {...form.getInputProps("value")}
            />
            <TextInput label="Label" required {...form.getInputProps("label")} />
            <NumberInput
              label="Rank"
              description={`1 to ${topRank - 1}: who may change whose role follows the rank.`}
              min={1}
              max={topRank - 1}
              disabled={role !== null}
              {...form.getInputProps("rank")}
            />
            <Textarea label="Description" autosize minRows={1} {...form.getInputProps("description")} />
          </SimpleGrid>
          <Checkbox.Group label="Permissions" {...form.getInputProps("permissions")}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing={6}>
              {[
                ...known.map((k) => ({ key: k.key, label: `${k.label} (${k.key})` })),
                ...extra.map((k) => ({ key: k, label: `${k} (new)` })),
              ].map((k) => (
                <Checkbox key={k.key} value={k.key} label={k.label} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          {scope === "team" && (
            <Stack gap={6}>
              <Group align="flex-end" wrap="wrap">
                <TextInput
                  label="New team permission"
                  placeholder="team.reports.view"
                  value={newKey}
                  error={newKey && !keyOk ? "Like team.reports.view: team, then lower-case words joined by dots" : undefined}
                  onChange={(e) => setNewKey(e.currentTarget.value)}
                />
                <Button
                  variant="default"
                  disabled={!keyOk}
                  onClick={() => {
                    if (!permissions.includes(newKey.trim())) toggle(newKey.trim());
                    setNewKey("");
                  }}
                >
                  Add permission
                </Button>
              </Group>
              <Alert color="blue" variant="light">
                <Text size="sm">A new team permission becomes a valid API-key scope at once: keys can be created holding it.</Text>
              </Alert>
            </Stack>
          )}
          <ApiErrorAlert error={create.error ?? update.error} />
          <DialogActions
            confirmLabel={role ? "Save role" : "Create role"}
            loading={create.isPending || update.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
