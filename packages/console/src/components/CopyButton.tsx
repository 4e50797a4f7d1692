import { ActionIcon, CopyButton as MantineCopyButton, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";

/** Copies `value`; `label` names what is copied ("Copy address"), for screen readers and the tooltip. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  return (
    <MantineCopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? "Copied" : label} withArrow>
          <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} aria-label={copied ? "Copied" : label} onClick={copy}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </MantineCopyButton>
  );
}
