import { Button, Code, Group, PasswordInput, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import type { ReactNode } from "react";
import { useApi } from "../../api/query";
import { ApiErrorAlert, CopyButton } from "../../components";
import { SecretState } from "./SecretState";
import { bodyOf, callbackUrl, presetOf, type ProviderDraft } from "./sso-presets";
import { SsoTestView } from "./SsoTestView";
import { useOrgChoices, useTestSsoDraft } from "./api";

/**
 * A provider's fields as its preset asks for them (issuer for okta and oidc, tenant for azure);
 * the client secret is write-only. "Test" checks the unsaved values against the provider's
 * discovery document.
 */
export function ProviderForm({
  draft,
  onChange,
  hasSecret,
  nameLocked,
  submitLabel,
  submitting,
  error,
  onSubmit,
  extraActions,
}: {
  draft: ProviderDraft;
  onChange: (patch: Partial<ProviderDraft>) => void;
  /** editing: whether a secret is stored; creating: undefined */
  hasSecret?: boolean;
  nameLocked?: boolean;
  submitLabel: string;
  submitting: boolean;
  error: unknown;
  onSubmit: () => void;
  extraActions?: ReactNode;
}) {
  const bb = useApi();
  const preset = presetOf(draft.provider_type);
  const orgs = useOrgChoices();
  const test = useTestSsoDraft();
  const callback = callbackUrl(bb.baseUrl, draft.name.trim(), window.location.href);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {preset.title}: {preset.hint}
        </Text>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="Name"
            description="In the sign-in URL: a-z, 0-9 and -"
            required
            disabled={nameLocked}
            value={draft.name}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
            miw={180}
          />
          <TextInput
            label="Button label"
            description="“Continue with …” on the sign-in page"
            required
            value={draft.label}
            onChange={(e) => onChange({ label: e.currentTarget.value })}
            miw={180}
          />
        </Group>
        <Group gap={4} wrap="nowrap">
          <Text size="sm">
            Redirect URI to register at the provider: <Code>{callback}</Code>
          </Text>
          <CopyButton value={callback} label="Copy redirect URI" />
        </Group>
        {preset.needs === "issuer" && (
          <TextInput
            label="Issuer URL"
            required
            placeholder="https://idp.example.com"
            value={draft.issuer_url}
            onChange={(e) => onChange({ issuer_url: e.currentTarget.value })}
          />
        )}
        {preset.needs === "tenant" && (
          <TextInput
            label="Tenant"
            description="Directory id or domain"
            required
            value={draft.tenant_id}
            onChange={(e) => onChange({ tenant_id: e.currentTarget.value })}
          />
        )}
        <TextInput
          label="Client ID"
          required
          value={draft.client_id}
          onChange={(e) => onChange({ client_id: e.currentTarget.value })}
          autoComplete="off"
        />
        {hasSecret !== undefined && <SecretState label="Client secret" set={hasSecret} />}
        <PasswordInput
          label={hasSecret === undefined ? "Client secret" : "New client secret"}
          description={hasSecret === undefined ? "Never shown again after saving." : "Leave empty to keep the stored one."}
          required={hasSecret === undefined}
          value={draft.client_secret}
          onChange={(e) => onChange({ client_secret: e.currentTarget.value })}
          autoComplete="new-password"
        />
        <TextInput
          label="Scopes"
          description="Separated by spaces"
          value={draft.scopes}
          onChange={(e) => onChange({ scopes: e.currentTarget.value })}
        />
        <Switch
          label="Enabled (shown on the sign-in page)"
          checked={draft.enabled}
          onChange={(e) => onChange({ enabled: e.currentTarget.checked })}
        />
        <Switch
          label="Create accounts on first sign-in"
          description="Without it, only existing users and addresses covered by a domain mapping get in."
          checked={draft.auto_provision}
          onChange={(e) => onChange({ auto_provision: e.currentTarget.checked })}
        />
        <Switch
          label="Trust this provider's email addresses"
          description="Only for a provider that owns the addresses it asserts (your company's directory). Its addresses count as verified, and a first sign-in joins the existing account with that address when that address is verified. Without it, people with an account link the provider from their account page."
          checked={draft.trust_email}
          onChange={(e) => onChange({ trust_email: e.currentTarget.checked })}
        />
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label="New accounts join"
            placeholder="No organization"
            clearable
            searchable
            data={(orgs.data?.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            value={draft.default_org_id}
            onChange={(v) => onChange({ default_org_id: v })}
            miw={200}
          />
          <Select
            label="With the role"
            data={[
              { value: "member", label: "Member" },
              { value: "admin", label: "Admin" },
              { value: "owner", label: "Owner" },
            ]}
            value={draft.default_org_role}
            onChange={(v) => v && onChange({ default_org_role: v })}
            allowDeselect={false}
            miw={140}
          />
        </Group>
        <ApiErrorAlert error={error} />
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
          <Button variant="default" loading={test.isPending} onClick={() => test.mutate(bodyOf(draft))}>
            Test these settings
          </Button>
          {extraActions}
        </Group>
        <ApiErrorAlert error={test.error} />
        <SsoTestView result={test.data} />
      </Stack>
    </form>
  );
}
