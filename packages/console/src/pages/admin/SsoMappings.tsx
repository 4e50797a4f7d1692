import { ActionIcon, Alert, Button, Group, List, Modal, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { SsoDomainMappingBody, SsoMappingPreviewBody } from "@burnbox/contracts/src/identity/sso-admin.schemas";
import { useContractForm } from "../../lib/contract-form";
import { ApiErrorAlert, ConfirmModal, DialogActions, ListView } from "../../components";
import { adminKeys } from "./keys";
import { notify } from "../../lib/notify";
import { Section } from "./Section";
import type { SsoProvider } from "./sso-presets";
import {
  useOrgChoices,
  useMappingTeams,
  useDomainMappings,
  useDeleteDomainMapping,
  useSaveDomainMapping,
  usePreviewDomainMapping,
  type Mapping,
  type MappingBody,
} from "./api";
import { ListTable } from "../../components/ListTable";

const ORG_ROLES = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
  { value: "owner", label: "Owner" },
];
const TEAM_ROLES = [
  { value: "member", label: "Member" },
  { value: "lead", label: "Lead" },
];

function useAllOrgs() {
  return useOrgChoices();
}

function useTeams(orgId: string | null) {
  return useMappingTeams({ orgId }, { enabled: !!orgId });
}

function TeamName({ orgId, teamId }: { orgId: string; teamId: string }) {
  const teams = useTeams(orgId);
  return <>{teams.data?.data.find((t) => t.id === teamId)?.name ?? "…"}</>;
}

/** Email domains whose people this provider signs in, and where they land (org, team, roles). */
export function DomainMappings({ provider }: { provider: SsoProvider }) {
  const pid = provider.id;
  const list = useDomainMappings({ pid });
  const orgs = useAllOrgs();
  const orgName = (id: string) => orgs.data?.data.find((o) => o.id === id)?.name ?? "…";
  // what the dialog shows is kept while it closes (its title does not change under the exit transition)
  const [editing, setEditing] = useState<Mapping | "new">("new");
  const [open, setOpen] = useState(false);
  const edit = (what: Mapping | "new") => {
    setEditing(what);
    setOpen(true);
  };
  const [deleting, setDeleting] = useState<Mapping | null>(null);
  const remove = useDeleteDomainMapping(
    { pid },
    {
      invalidates: [adminKeys.ssoMappings(pid)],
      onSuccess: () => {
        setDeleting(null);
        notify("Mapping removed");
      },
    },
  );
  return (
    <Section
      title="Domain mappings"
      description="People whose email is at a mapped domain get an account on first sign-in, in the mapping’s organization and team, with its roles (these win over the provider’s defaults)."
    >
      <ListView
        query={list}
        loading={{ label: "Loading mappings" }}
        empty={
          <Text size="sm" c="dimmed">
            No domain is mapped yet.
          </Text>
        }
        table={{ label: "Domain mappings", minWidth: 600 }}
      >
        {(rows) => (
          <ListTable striped verticalSpacing="xs" aria-label="Domain mappings" columns={["Domain", "Organization", "Team"]} actions>
            {rows.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>{m.domain}</Table.Td>
                <Table.Td>
                  {orgName(m.org_id)} ({m.org_role})
                </Table.Td>
                <Table.Td>
                  {m.team_id ? (
                    <>
                      <TeamName orgId={m.org_id} teamId={m.team_id} /> ({m.team_role ?? "member"})
                    </>
                  ) : (
                    "—"
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <ActionIcon variant="subtle" color="gray" aria-label={`Edit mapping ${m.domain}`} onClick={() => edit(m)}>
                      <IconPencil size={16} />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove mapping ${m.domain}`} onClick={() => setDeleting(m)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => edit("new")}>
          Map a domain
        </Button>
      </Group>
      <MappingModal opened={open} pid={pid} mapping={editing === "new" ? null : editing} onClose={() => setOpen(false)} />
      <ConfirmModal
        opened={!!deleting}
        title="Remove this mapping?"
        confirmLabel="Remove mapping"
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      >
        New people at {deleting?.domain} are no longer placed by it. Existing accounts and memberships stay.
      </ConfirmModal>
    </Section>
  );
}

/** Stays mounted while closed, so closing it gives the focus back to what opened it; its body (state, queries) mounts on each opening. */
function MappingModal({ opened, ...body }: { opened: boolean; pid: string; mapping: Mapping | null; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={body.onClose}
      title={body.mapping ? `Mapping of ${body.mapping.domain}` : "Map a domain"}
      closeButtonProps={{ "aria-label": "Close" }}
    >
      <MappingForm key={body.mapping?.id ?? "new"} {...body} />
    </Modal>
  );
}

type MappingValues = {
  domain: string;
  org_id: string | null;
  org_role: MappingBody["org_role"];
  team_id: string | null;
  team_role: "lead" | "member";
};
/** The request of the form: the team's role only with a team. */
const mappingBody = (v: MappingValues) => ({
  domain: v.domain.trim(),
  org_id: v.org_id ?? "",
  org_role: v.org_role,
  team_id: v.team_id,
  team_role: v.team_id ? v.team_role : null,
});

function MappingForm({ pid, mapping, onClose }: { pid: string; mapping: Mapping | null; onClose: () => void }) {
  const form = useContractForm<MappingValues>(
    SsoDomainMappingBody,
    {
      domain: mapping?.domain ?? "",
      org_id: mapping?.org_id ?? null,
      org_role: mapping?.org_role ?? "member",
      team_id: mapping?.team_id ?? null,
      team_role: mapping?.team_role ?? "member",
    },
    { toBody: mappingBody },
  );
  const { domain, org_id: orgId, team_id: teamId } = form.getValues();
  const orgs = useAllOrgs();
  const teams = useTeams(orgId);
  const save = useSaveDomainMapping(
    { pid, mappingId: mapping?.id },
    {
      invalidates: [adminKeys.ssoMappings(pid)],
      onSuccess: () => {
        notify(mapping ? "Mapping saved" : "Domain mapped");
        onClose();
      },
    },
  );
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(mappingBody(v)))}>
      <Stack>
        <TextInput label="Email domain" placeholder="example.com" required {...form.getInputProps("domain")} />
        <Select
          label="Organization"
          required
          searchable
          data={(orgs.data?.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          {...form.getInputProps("org_id")}
          onChange={(v: string | null) => form.setValues({ org_id: v, team_id: null })}
        />
        <Select
          label="Organization role"
          data={ORG_ROLES}
          {...form.getInputProps("org_role")}
          onChange={(v: string | null) => v && form.setFieldValue("org_role", v as MappingBody["org_role"])}
          allowDeselect={false}
        />
        <Select
          label="Team"
          placeholder="No team"
          clearable
          disabled={!orgId}
          data={(teams.data?.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          {...form.getInputProps("team_id")}
        />
        {teamId && (
          <Select
            label="Team role"
            data={TEAM_ROLES}
            {...form.getInputProps("team_role")}
            onChange={(v: string | null) => v && form.setFieldValue("team_role", v as "lead" | "member")}
            allowDeselect={false}
          />
        )}
        <ApiErrorAlert error={save.error ?? orgs.error} />
        <DialogActions
          confirmLabel={mapping ? "Save mapping" : "Map domain"}
          loading={save.isPending}
          disabled={!orgId || !domain.trim()}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}

/** What would happen on the first sign-in of an address: `POST /admin/sso/domain-mappings/preview`. */
export function MappingPreview({ provider }: { provider: SsoProvider }) {
  const form = useContractForm(
    SsoMappingPreviewBody,
    { email: "" },
    { toBody: (v) => ({ email: v.email.trim(), provider: provider.name }) },
  );
  const orgs = useAllOrgs();
  const preview = usePreviewDomainMapping({ providerName: provider.name });
  const result = preview.data;
  const org = result?.matching_rules[0] ? orgs.data?.data.find((o) => o.id === result.matching_rules[0]!.org_id)?.name : undefined;
  return (
    <Section
      title="Provisioning preview"
      description="Try an address: see whether its first sign-in would create an account, and where it would land."
    >
      <form onSubmit={form.onSubmit((v) => preview.mutate(v.email.trim()))}>
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Email address" type="email" required {...form.getInputProps("email")} miw={260} />
          <Button type="submit" variant="default" loading={preview.isPending}>
            Preview
          </Button>
        </Group>
      </form>
      <ApiErrorAlert error={preview.error} />
      {result && (
        <Alert
          role="status"
          variant="light"
          color={result.would_provision ? "green" : "gray"}
          title={result.would_provision ? `${result.email} would get an account` : `${result.email} would not be provisioned`}
        >
          <Stack gap={4}>
            <Text size="sm">
              {result.matching_rules.length === 0
                ? `No mapping covers ${result.email_domain}.${result.would_provision ? " The provider creates accounts on first sign-in." : ""}`
                : `Matched by the mapping of ${result.matching_rules.map((m) => m.domain).join(", ")}.`}
            </Text>
            {result.org_role && (
              <Text size="sm">
                Organization{org ? ` ${org}` : ""}: {result.org_role}
              </Text>
            )}
            {result.team_assignments.length > 0 && (
              <List size="sm">
                {result.team_assignments.map((t) => (
                  <List.Item key={t.team_id}>
                    Team {t.team_name ?? "(deleted)"}: {t.team_role}
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Alert>
      )}
    </Section>
  );
}
