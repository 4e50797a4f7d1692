import { Textarea } from "@mantine/core";
import { UpdateDomainBody } from "@burnbox/contracts/src/tenancy/domains.schemas";
import { TierDetailsForm, TierSettingsSection } from "../../components/TierSettingsSection";
import { useContractForm } from "../../lib/contract-form";
import { domainsKeys } from "./keys";
import type { Domain } from "./status";
import { useUpdateDomain } from "./api";

const detailsOf = (v: { description: string }) => ({ description: v.description.trim() || null });

/** The domain's description and its tier of the inbox settings (`PATCH /orgs/:id/domains/:did`, `org.domains.manage`). */
export function DomainSettings({ orgId, domain, canManage }: { orgId: string; domain: Domain; canManage: boolean }) {
  const form = useContractForm(UpdateDomainBody, { description: domain.description ?? "" }, { toBody: detailsOf });
  const update = useUpdateDomain({ orgId, domainId: domain.id }, { invalidates: [domainsKeys.all(orgId)] });
  return (
    <TierSettingsSection id="domain-settings" tier="domain" settings={domain.settings} canEdit={canManage} update={update}>
      <TierDetailsForm
        canEdit={canManage}
        saving={update.isPending}
        submitLabel="Save description"
        onSubmit={form.onSubmit((values) => update.mutate(detailsOf(values)))}
      >
        <Textarea
          label="Description"
          description="Shown under the domain's name, here and in the list."
          disabled={!canManage}
          autosize
          minRows={2}
          maxLength={500}
          {...form.getInputProps("description")}
        />
      </TierDetailsForm>
    </TierSettingsSection>
  );
}
