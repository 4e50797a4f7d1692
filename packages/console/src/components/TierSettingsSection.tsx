import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { FormEventHandler, ReactNode } from "react";
import { TierSettingsForm, tierSettingsOf, type TierSettings } from "./TierSettingsFields";

/**
 * The "Settings" section of something that is a tier of the inbox settings (a team, a domain):
 * its own fields (`children`, a <TierDetailsForm>), the tier's settings form, the "Saved." status
 * and, under them, a note (`footer`). Both forms save through the same `PATCH`, so they share
 * `saving`, `error` and `saved`.
 */
export function TierSettingsSection({
  id,
  tier,
  settings,
  canEdit,
  saving,
  error,
  saved,
  onSaveSettings,
  children,
  footer,
}: {
  /** the heading's id, which names the region */
  id: string;
  tier: string;
  settings: Record<string, unknown> | undefined;
  canEdit: boolean;
  saving: boolean;
  error: unknown;
  saved: string | null;
  onSaveSettings: (settings: TierSettings) => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        Settings
      </Title>
      <Stack gap="lg">
        {children}
        <TierSettingsForm
          tier={tier}
          initial={tierSettingsOf(settings)}
          disabled={!canEdit}
          saving={saving}
          error={error}
          onSave={onSaveSettings}
        />
        {saved && (
          <Text size="sm" c="teal" role="status">
            {saved}
          </Text>
        )}
        {footer}
      </Stack>
    </Paper>
  );
}

/** The tier's own fields (name, description) and, for those who may change them, their save button. */
export function TierDetailsForm({
  canEdit,
  saving,
  submitLabel,
  onSubmit,
  children,
}: {
  canEdit: boolean;
  saving: boolean;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit}>
      <Stack gap="sm">
        {children}
        {canEdit && (
          <Group justify="flex-end">
            <Button type="submit" variant="default" loading={saving}>
              {submitLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
