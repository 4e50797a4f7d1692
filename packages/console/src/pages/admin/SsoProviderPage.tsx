import { Anchor, Badge, Button, Center, Group, Loader, Stack } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { ApiErrorAlert, ConfirmModal, PageHeader } from "../../components";
import { AdminGate } from "./AdminGate";
import { adminKeys } from "./keys";
import { notify } from "../../lib/notify";
import { ProviderForm } from "./ProviderForm";
import { Section } from "./Section";
import { DomainMappings, MappingPreview } from "./SsoMappings";
import { draftFromProvider, type SsoProvider } from "./sso-presets";
import { SsoTestView } from "./SsoTestView";
import { useSsoProvider, useSaveSsoProvider, useToggleSsoProvider, useTestSsoProvider, useDeleteSsoProvider } from "./api";

export default function SsoProviderPage() {
  return (
    <AdminGate title="SSO provider">
      <Provider />
    </AdminGate>
  );
}

function Provider() {
  const { pid = "" } = useParams();
  const q = useSsoProvider({ pid });
  const back = (
    <Anchor component={Link} to="/admin/sso" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} /> All SSO providers
      </Group>
    </Anchor>
  );
  if (!q.data)
    return (
      <>
        <PageHeader title="SSO provider" />
        {back}
        <ApiErrorAlert error={q.error} />
        {q.isPending && (
          <Center py="xl">
            <Loader aria-label="Loading the provider" />
          </Center>
        )}
      </>
    );
  return <ProviderDetail provider={q.data} back={back} />;
}

function ProviderDetail({ provider, back }: { provider: SsoProvider; back: React.ReactNode }) {
  const navigate = useNavigate();
  const pid = provider.id;
  const [deleting, setDeleting] = useState(false);
  const initial = useMemo(() => draftFromProvider(provider), [provider]);
  const invalidates = [adminKeys.ssoProviders()];
  const save = useSaveSsoProvider(
    { pid },
    {
      invalidates,
      onSuccess: () => notify("Provider saved"),
    },
  );
  // enabling or disabling sends the saved provider with only that changed (the secret is kept)
  const toggle = useToggleSsoProvider(
    { provider },
    { invalidates, onSuccess: (p) => notify(p.enabled ? "Provider enabled" : "Provider disabled") },
  );
  const test = useTestSsoProvider({ pid });
  const remove = useDeleteSsoProvider(
    { pid },
    {
      invalidates,
      onSuccess: () => {
        notify(`${provider.label} was deleted`);
        void navigate("/admin/sso");
      },
    },
  );

  return (
    <>
      <PageHeader
        title={provider.label}
        description={
          <Group gap="xs" component="span">
            <span>{provider.name}</span>
            <Badge variant="light" color={provider.enabled ? "green" : "gray"}>
              {provider.enabled ? "Enabled" : "Disabled"}
            </Badge>
          </Group>
        }
        actions={
          <>
            <Button variant="default" loading={test.isPending} onClick={() => test.mutate(undefined)}>
              Test provider
            </Button>
            <Button
              variant={provider.enabled ? "default" : "filled"}
              loading={toggle.isPending}
              onClick={() => toggle.mutate(!provider.enabled)}
            >
              {provider.enabled ? "Disable" : "Enable"}
            </Button>
          </>
        }
      />
      <Stack gap="lg">
        {back}
        <ApiErrorAlert error={test.error ?? toggle.error} />
        <SsoTestView result={test.data} />
        <Section title="Settings">
          <ProviderForm
            initial={initial}
            hasSecret={provider.has_client_secret}
            nameLocked={false}
            submitLabel="Save provider"
            submitting={save.isPending}
            error={save.error}
            onSubmit={(d) => save.mutate(d)}
            extraActions={
              <Button color="red" variant="light" onClick={() => setDeleting(true)}>
                Delete provider
              </Button>
            }
          />
        </Section>
        <DomainMappings provider={provider} />
        <MappingPreview provider={provider} />
      </Stack>
      <ConfirmModal
        opened={deleting}
        title="Delete this provider?"
        confirmLabel="Delete provider"
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined)}
        onClose={() => setDeleting(false)}
      >
        People can no longer sign in with {provider.label}; its domain mappings go with it. Accounts stay.
      </ConfirmModal>
    </>
  );
}
