import { Button, Code, Group, PasswordInput, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import type { ReactNode } from "react";
import { SsoProviderBody } from "@burnbox/contracts/src/identity/sso-admin.schemas";
import { useContractForm } from "../../lib/contract-form";
import { useValuesFrom } from "../../lib/use-values-from";
import { ApiErrorAlert, CopyButton } from "../../components";
import { SecretState } from "./SecretState";
import { bodyOf, callbackUrl, presetOf, type ProviderDraft } from "./sso-presets";
import { SsoTestView } from "./SsoTestView";
import { useApiBaseUrl, useOrgChoices, useTestSsoDraft } from "./api";

/**
 * A provider's fields as its preset asks for them (issuer for okta and oidc, tenant for azure);
 * the client secret is write-only. "Test" checks the unsaved values against the provider's
 * discovery document.
 */
export function ProviderForm({
  initial,
  hasSecret,
  nameLocked,
  submitLabel,
  submitting,
  error,
  onSubmit,
  extraActions,
}: {
  /** the values to start from; another object (another preset, the provider read again) puts its values in the form */
  initial: ProviderDraft;
  /** editing: whether a secret is stored; creating: undefined */
  hasSecret?: boolean;
  nameLocked?: boolean;
  submitLabel: string;
  submitting: boolean;
  error: unknown;
  onSubmit: (draft: ProviderDraft) => void;
  extraActions?: ReactNode;
}) {
  const apiBase = useApiBaseUrl();
  const form = useContractForm<ProviderDraft>(SsoProviderBody, initial, { toBody: bodyOf });
  useValuesFrom(initial, (d) => d, form.setValues);
  const draft = form.getValues();
  const onChange = (patch: Partial<ProviderDraft>) => form.setValues(patch);
  const preset = presetOf(draft.provider_type);
  const orgs = useOrgChoices();
  const test = useTestSsoDraft();
  const callback = callbackUrl(apiBase, draft.name.trim(), window.location.href);
  return (
    <form onSubmit={form.onSubmit(onSubmit)}>
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
            {...form.getInputProps("name")}
            miw={180}
          />
          <TextInput
            label="Button label"
            description="“Continue with …” on the sign-in page"
            required
            {...form.getInputProps("label")}
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
          <TextInput label="Issuer URL" required placeholder="https://idp.example.com" {...form.getInputProps("issuer_url")} />
        )}
        {preset.needs === "tenant" && (
          <TextInput label="Tenant" description="Directory id or domain" required {...form.getInputProps("tenant_id")} />
        )}
        <TextInput label="Client ID" required {...form.getInputProps("client_id")} autoComplete="off" />
        {hasSecret !== undefined && <SecretState label="Client secret" set={hasSecret} />}
        <PasswordInput
          label={hasSecret === undefined ? "Client secret" : "New client secret"}
          description={hasSecret === undefined ? "Never shown again after saving." : "Leave empty to keep the stored one."}
          required={hasSecret === undefined}
          {...form.getInputProps("client_secret")}
          autoComplete="new-password"
        />
        <TextInput label="Scopes" description="Separated by spaces" {...form.getInputProps("scopes")} />
        <Switch label="Enabled (shown on the sign-in page)" {...form.getInputProps("enabled", { type: "checkbox" })} />
        <Switch
          label="Create accounts on first sign-in"
          description="Without it, only existing users and addresses covered by a domain mapping get in."
          {...form.getInputProps("auto_provision", { type: "checkbox" })}
        />
        <Switch
          label="Trust this provider's email addresses"
          description="Only for a provider that owns the addresses it asserts (your company's directory). Its addresses count as verified, and a first sign-in joins the existing account with that address when that address is verified. Without it, people with an account link the provider from their account page."
          {...form.getInputProps("trust_email", { type: "checkbox" })}
        />
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label="New accounts join"
            placeholder="No organization"
            clearable
            searchable
            data={(orgs.data?.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            {...form.getInputProps("default_org_id")}
            miw={200}
          />
          <Select
            label="With the role"
            data={[
              { value: "member", label: "Member" },
              { value: "admin", label: "Admin" },
              { value: "owner", label: "Owner" },
            ]}
            {...form.getInputProps("default_org_role")}
            onChange={(v: string | null) => v && onChange({ default_org_role: v as ProviderDraft["default_org_role"] })}
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
