import { Alert, Button, Checkbox, Group, List, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconInfoCircle } from "@tabler/icons-react";
import { UpdateOrgBody, UpdateOrgSettingsBody } from "@burnbox/contracts/src/tenancy/orgs.schemas";
import { useContractForm } from "../../lib/contract-form";
import { workspaceKeys } from "../../api/keys";
import { ApiErrorAlert } from "../../components";
import { humanDuration, parseDuration } from "../../lib/duration";
import { DeleteOrgSection } from "./DeleteOrgSection";
import { orgsKeys } from "./keys";
import { OrgFrame, type OrgScope } from "./OrgFrame";
import { OutboundSection } from "./OutboundSection";
import { useRenameOrg, useUpdateOrgSettings, type OrgSettings } from "./api";

/** `/orgs/:orgId/settings`: the org's name and settings (`PATCH /orgs/:id`, `PATCH /orgs/:id/settings`). */
export default function SettingsPage() {
  return <OrgFrame tab="settings">{(scope) => <SettingsForms key={scope.org.updated_at} scope={scope} />}</OrgFrame>;
}

/** The TTL fields' problems, in the page's words: each a duration, the default within the maximum. */
function ttlErrors(s: OrgSettings): { default_inbox_ttl?: string; max_inbox_ttl?: string } {
  const defMs = parseDuration(s.default_inbox_ttl);
  const maxMs = parseDuration(s.max_inbox_ttl);
  return {
    default_inbox_ttl:
      defMs === null ? "A duration such as 10m, 2h or 1d" : maxMs !== null && defMs > maxMs ? "Longer than the maximum TTL" : undefined,
    max_inbox_ttl: maxMs === null ? "A duration such as 24h or 7d" : undefined,
  };
}

function SettingsForms({ scope }: { scope: OrgScope }) {
  const { orgId, org, perms } = scope;
  const canManage = perms.can("org.settings.manage");
  const nameForm = useContractForm(UpdateOrgBody, { name: org.name }, { toBody: (v) => ({ name: v.name.trim() }) });
  const name = nameForm.getValues().name;
  const form = useContractForm<OrgSettings>(UpdateOrgSettingsBody, org.settings, { rules: ttlErrors });
  const s = form.getValues();
  const set = (patch: Partial<OrgSettings>) => form.setValues(patch);
  const invalidates = [orgsKeys.org(orgId), workspaceKeys.orgs()];
  const rename = useRenameOrg(
    { orgId },
    {
      invalidates,
      onSuccess: () => notifications.show({ message: "Name saved" }),
    },
  );
  const save = useUpdateOrgSettings(
    { orgId },
    {
      invalidates,
      onSuccess: () => notifications.show({ message: "Settings saved" }),
    },
  );

  const defMs = parseDuration(s.default_inbox_ttl);
  const maxMs = parseDuration(s.max_inbox_ttl);
  // the TTLs are checked as they are typed; the contract's other checks when saving
  const live = ttlErrors(s);
  const submitSettings = form.onSubmit((values) => save.mutate(values));

  return (
    <Stack gap="xl">
      {!canManage && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />} title="Read only">
          Your role may view these settings but not change them; an owner or admin can.
        </Alert>
      )}
      <form onSubmit={nameForm.onSubmit((v) => rename.mutate({ name: v.name.trim() }))}>
        <Stack maw={520}>
          <Title order={2} size="h4">
            Name
          </Title>
          <TextInput label="Organization name" required readOnly={!canManage} {...nameForm.getInputProps("name")} />
          <Text size="sm" c="dimmed">
            The slug ({org.slug}) never changes.
          </Text>
          <ApiErrorAlert error={rename.error} />
          {canManage && (
            <Group>
              <Button type="submit" loading={rename.isPending} disabled={name.trim() === org.name || name.trim() === ""}>
                Save name
              </Button>
            </Group>
          )}
        </Stack>
      </form>

      <form onSubmit={submitSettings}>
        <Stack>
          <Title order={2} size="h4">
            Inbox lifetime (TTL)
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
            <TextInput
              label="Default TTL"
              description={defMs !== null ? `${humanDuration(defMs)}` : "e.g. 10m, 2h, 1d"}
              readOnly={!canManage}
              {...form.getInputProps("default_inbox_ttl")}
              error={live.default_inbox_ttl ?? form.errors.default_inbox_ttl}
              onChange={(e) => set({ default_inbox_ttl: e.currentTarget.value.trim() })}
            />
            <TextInput
              label="Maximum TTL"
              description={maxMs !== null ? `${humanDuration(maxMs)}` : "e.g. 24h, 7d"}
              readOnly={!canManage}
              {...form.getInputProps("max_inbox_ttl")}
              error={live.max_inbox_ttl ?? form.errors.max_inbox_ttl}
              onChange={(e) => set({ max_inbox_ttl: e.currentTarget.value.trim() })}
            />
          </SimpleGrid>
          <TtlCascade defMs={defMs} maxMs={maxMs} />

          <Title order={2} size="h4" mt="md">
            Limits and attachments
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
            <NumberInput
              label="Teams at most"
              min={1}
              readOnly={!canManage}
              {...form.getInputProps("max_teams")}
              onChange={(v) => set({ max_teams: Number(v) || 1 })}
            />
            <NumberInput
              label="Domains at most"
              min={1}
              readOnly={!canManage}
              {...form.getInputProps("max_domains")}
              onChange={(v) => set({ max_domains: Number(v) || 1 })}
            />
            <NumberInput
              label="Active inboxes per domain at most"
              min={1}
              readOnly={!canManage}
              {...form.getInputProps("max_inboxes_per_domain")}
              onChange={(v) => set({ max_inboxes_per_domain: Number(v) || 1 })}
            />
            <NumberInput
              label="Attachment size at most (MB)"
              min={1}
              readOnly={!canManage}
              {...form.getInputProps("max_attachment_size_mb")}
              onChange={(v) => set({ max_attachment_size_mb: Number(v) || 1 })}
            />
          </SimpleGrid>
          <Checkbox
            label="Keep attachments of received mail"
            disabled={!canManage}
            {...form.getInputProps("attachments_enabled", { type: "checkbox" })}
          />
          <Checkbox
            label="Members must sign in with SSO"
            disabled={!canManage}
            {...form.getInputProps("enforce_sso", { type: "checkbox" })}
          />
          <ApiErrorAlert error={save.error} />
          {canManage && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save settings
              </Button>
            </Group>
          )}
        </Stack>
      </form>
      <OutboundSection orgId={orgId} settings={org.settings} canManage={canManage} />
      {perms.can("org.delete") && <DeleteOrgSection org={org} />}
    </Stack>
  );
}

/** Which tier's TTL wins, in words, with this org's numbers. */
function TtlCascade({ defMs, maxMs }: { defMs: number | null; maxMs: number | null }) {
  return (
    <Paper withBorder p="md" maw={720} aria-label="How an inbox's TTL is chosen" component="section">
      <Text fw={600} size="sm" mb="xs">
        How an inbox&apos;s TTL is chosen
      </Text>
      <List size="sm" spacing="xs">
        <List.Item>
          <strong>Default:</strong> the first one set of the domain assignment, the team, the domain, this organization, the platform (10
          min). This organization&apos;s default applies wherever no team, domain or assignment sets one.
        </List.Item>
        <List.Item>
          <strong>Maximum:</strong> the smallest of every maximum set (platform, this organization, domain, team, assignment). No tier can
          raise it: a maximum above the one of the tiers above is refused, and so is an inbox asking for more.
        </List.Item>
        {defMs !== null && maxMs !== null && (
          <List.Item>
            <strong>Here:</strong> inboxes live {humanDuration(defMs)} unless a team, domain or assignment sets another default; the
            effective maximum is {humanDuration(maxMs)}, or less where a team, domain or assignment sets a smaller one. The platform&apos;s
            maximum caps this one.
          </List.Item>
        )}
      </List>
    </Paper>
  );
}
