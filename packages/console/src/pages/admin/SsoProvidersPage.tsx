import { Anchor, Badge, Button, Modal, Radio, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { EmptyState, ListView, PageHeader } from "../../components";
import { AdminGate } from "./AdminGate";
import { adminKeys } from "./keys";
import { ProviderForm } from "./ProviderForm";
import { draftFromPreset, presetOf, PRESETS, type ProviderDraft } from "./sso-presets";
import { useSsoProviders, useCreateSsoProvider } from "./api";
import { ListTable } from "../../components/ListTable";

const TITLE = "SSO providers";

export default function SsoProvidersPage() {
  return (
    <AdminGate title={TITLE}>
      <Providers />
    </AdminGate>
  );
}

function Providers() {
  const list = useSsoProviders();
  const [creating, setCreating] = useState(false);
  const add = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      Add provider
    </Button>
  );
  return (
    <>
      <PageHeader
        title={TITLE}
        description="Single sign-on through Google, Microsoft, Okta, GitHub or any OpenID Connect provider."
        actions={add}
      />
      <ListView
        query={list}
        loading={{ label: "Loading providers" }}
        empty={
          <EmptyState title="No SSO provider yet" icon={<IconKey size={28} stroke={1.5} />} action={add}>
            Add one from a preset; people then see “Continue with …” on the sign-in page.
          </EmptyState>
        }
        table={{ label: "SSO providers", minWidth: 640 }}
      >
        {(rows) => (
          <ListTable striped verticalSpacing="xs" aria-label="SSO providers" columns={["Provider", "Type", "State", "New accounts"]}>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/sso/${p.id}`} fw={500}>
                    {p.label}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {p.name}
                  </Text>
                </Table.Td>
                <Table.Td>{presetOf(p.provider_type).title}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={p.enabled ? "green" : "gray"}>
                    {p.enabled ? "Enabled" : "Disabled"}
                  </Badge>
                </Table.Td>
                <Table.Td>{p.auto_provision ? "Created on first sign-in" : "Existing users and mapped domains"}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <CreateProviderModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}

/** Always mounted, so that closing it hands the focus back to the button that opened it; its form starts afresh each time. */
function CreateProviderModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add an SSO provider" size="lg" closeButtonProps={{ "aria-label": "Close" }}>
      <CreateProviderForm onClose={onClose} />
    </Modal>
  );
}

function CreateProviderForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ProviderDraft | null>(null);
  const create = useCreateSsoProvider({
    invalidates: [adminKeys.ssoProviders()],
    onSuccess: (p) => {
      onClose();
      void navigate(`/admin/sso/${p.id}`);
    },
  });
  return (
    <>
      <Stack>
        <Radio.Group
          label="Preset"
          value={draft?.provider_type ?? null}
          onChange={(v) => {
            create.reset();
            setDraft(draftFromPreset(presetOf(v)));
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {PRESETS.map((p) => (
              <Radio key={p.type} value={p.type} label={p.title} description={p.hint} />
            ))}
          </SimpleGrid>
        </Radio.Group>
        {draft && (
          <ProviderForm
            initial={draft}
            submitLabel="Create provider"
            submitting={create.isPending}
            error={create.error}
            onSubmit={(d) => create.mutate(d)}
          />
        )}
      </Stack>
    </>
  );
}
