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
import { ApiErrorAlert, DialogActions } from "../../components";
import { rolesKeys } from "./keys";
import { useCreateRole, useUpdateRole } from "./api";

export type Role = components["schemas"]["Role"];
type Catalog = components["schemas"]["RolesCatalog"];

const TEAM_KEY = /^team\.[a-z_]+(\.[a-z_]+)*$/;

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
  const [scope, setScope] = useState<"org" | "team">(role?.scope ?? "team");
  const [value, setValue] = useState(role?.value ?? "");
  const [label, setLabel] = useState(role?.label ?? "");
  const [description, setDescription] = useState(role?.description ?? "");
  const [rank, setRank] = useState<number | string>(role?.rank ?? 15);
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
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
  const toggle = (key: string) => setPermissions((ps) => (ps.includes(key) ? ps.filter((p) => p !== key) : [...ps, key]));
  const keyOk = TEAM_KEY.test(newKey.trim());
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened
      onClose={onClose}
      title={role ? `Edit ${role.label}` : "Create a custom role"}
      size="xl"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const common = { label: label.trim(), description: description.trim(), permissions };
          if (role) update.mutate(common);
          else create.mutate({ ...common, scope, value: value.trim(), rank: typeof rank === "number" ? rank : Number(rank) });
        }}
      >
        <Stack>
          {!role && (
            <SegmentedControl
              aria-label="Scope"
              data={[
                { value: "team", label: "Team role" },
                { value: "org", label: "Organization role" },
              ]}
              value={scope}
              onChange={(v) => {
                setScope(v);
                setPermissions([]);
              }}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Key"
              description="Lower case letters, digits and _; fixed once created."
              required
              disabled={role !== null}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
            />
            <TextInput label="Label" required value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
            <NumberInput
              label="Rank"
              description={`1 to ${topRank - 1}: who may change whose role follows the rank.`}
              min={1}
              max={topRank - 1}
              disabled={role !== null}
              value={rank}
              onChange={setRank}
            />
            <Textarea
              label="Description"
              autosize
              minRows={1}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Checkbox.Group label="Permissions" value={permissions} onChange={setPermissions}>
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
