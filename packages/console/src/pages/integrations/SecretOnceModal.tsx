import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { CopyButton } from "../../components";

/**
 * A secret the API returns only once (an API key's raw key, a webhook's signing secret): shown
 * here with a copy button and a warning, and held nowhere else: once this closes, it is gone.
 */
export function SecretOnceModal({
  title,
  label,
  copyLabel,
  value,
  children,
  onClose,
}: {
  title: string;
  /** names the field and the copy button: "API key", "Signing secret" */
  label: string;
  /** the copy button's name (default "Copy <label>") */
  copyLabel?: string;
  /** the secret; null: closed */
  value: string | null;
  children?: React.ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={value !== null}
      onClose={onClose}
      title={title}
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title="Shown only this once">
          Copy it now and keep it somewhere safe. BurnBox stores only a hash of it: once you close this dialog it cannot be shown again.
        </Alert>
        {children && <Text size="sm">{children}</Text>}
        <TextInput
          label={label}
          value={value ?? ""}
          readOnly
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          onFocus={(e) => e.currentTarget.select()}
          rightSection={value ? <CopyButton value={value} label={copyLabel ?? `Copy ${label}`} /> : null}
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>I have stored it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
