import { Group, Stack, Text, Title } from "@mantine/core";
import { useEffect, type ReactNode } from "react";

/** A page's heading (its one <h1>), a line under it, and its actions on the right; sets the tab title. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · BurnBox`;
  }, [title]);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap">
      {/* a long name without spaces (a domain, an address) wraps anywhere rather than push the page sideways on a phone */}
      <Stack gap={4} miw={0} style={{ overflowWrap: "anywhere" }}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
