import { Button, Group, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { tierSettingsOf, TierSettingsForm } from "../../components/TierSettingsFields";
import { domainsKeys } from "./keys";
import type { Domain } from "./status";
import { useUpdateDomain } from "./api";

/** The domain's description and its tier of the inbox settings (`PATCH /orgs/:id/domains/:did`, `org.domains.manage`). */
export function DomainSettings({ orgId, domain, canManage }: { orgId: string; domain: Domain; canManage: boolean }) {
  const [description, setDescription] = useState(domain.description ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const update = useUpdateDomain(
    { orgId, domainId: domain.id },
    { invalidates: [domainsKeys.all(orgId)], onSuccess: () => setSaved("Saved.") },
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="domain-settings">
      <Title order={2} size="h4" id="domain-settings" mb="sm">
        Settings
      </Title>
      <Stack gap="lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(null);
            update.mutate({ description: description.trim() || null });
          }}
        >
          <Stack gap="sm">
            <Textarea
              label="Description"
              description="Shown under the domain's name, here and in the list."
              value={description}
              disabled={!canManage}
              autosize
              minRows={2}
              maxLength={500}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            {canManage && (
              <Group justify="flex-end">
                <Button type="submit" variant="default" loading={update.isPending}>
                  Save description
                </Button>
              </Group>
            )}
          </Stack>
        </form>
        <TierSettingsForm
          tier="domain"
          initial={tierSettingsOf(domain.settings)}
          disabled={!canManage}
          saving={update.isPending}
          error={update.error}
          onSave={(settings) => {
            setSaved(null);
            update.mutate({ settings });
          }}
        />
        {saved && (
          <Text size="sm" c="teal" role="status">
            {saved}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
