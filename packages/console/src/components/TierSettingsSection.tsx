import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { FormEventHandler, ReactNode } from "react";
import { TierSettingsForm, tierSettingsOf, type TierSettings } from "./TierSettingsFields";

/**
 * The "Settings" section of something that is a tier of the inbox settings (a team, a domain):
 * its own fields (`children`, a <TierDetailsForm>), the tier's settings form, "Saved." once the
 * last save went through and, under them, a note (`footer`). Both forms save through the same
 * `PATCH` (`update`, the mutation), so they share its pending state, its error and its success.
 */
export function TierSettingsSection({
  id,
  tier,
  settings,
  canEdit,
  update,
  children,
  footer,
}: {
  /** the heading's id, which names the region */
  id: string;
  tier: string;
  settings: Record<string, unknown> | undefined;
  canEdit: boolean;
  update: { isPending: boolean; isSuccess: boolean; error: unknown; mutate: (body: { settings: TierSettings }) => void };
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
          saving={update.isPending}
          error={update.error}
          onSave={(settings) => update.mutate({ settings })}
        />
        {update.isSuccess && (
          <Text size="sm" c="teal" role="status">
            Saved.
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
