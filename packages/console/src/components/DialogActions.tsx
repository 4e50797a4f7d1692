import { Button, Group } from "@mantine/core";

/**
 * The footer of a dialog: Cancel, then the action, on the right. Without `onConfirm` the action is
 * the submit button of the form around it, so Enter in a field submits as before.
 */
export function DialogActions({
  confirmLabel,
  onCancel,
  onConfirm,
  loading,
  disabled,
  color,
  focusCancel,
}: {
  confirmLabel: string;
  onCancel: () => void;
  onConfirm?: () => void;
  loading?: boolean;
  disabled?: boolean;
  /** The action's colour: a red shade for what cannot be undone; the theme's primary colour by default. */
  color?: string;
  /** Cancel takes the focus when the dialog opens, so that a stray Enter does not confirm. */
  focusCancel?: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} data-autofocus={focusCancel || undefined}>
        Cancel
      </Button>
      <Button type={onConfirm ? "button" : "submit"} color={color} loading={loading} disabled={disabled} onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </Group>
  );
}
