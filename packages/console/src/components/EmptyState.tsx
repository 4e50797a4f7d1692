import { Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconInbox } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** A list with nothing in it: say what it will hold and what to do (`action`: the button that does it). */
export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
        {icon ?? <IconInbox size={28} stroke={1.5} />}
      </ThemeIcon>
      <Title order={3} size="h4">
        {title}
      </Title>
      {children && (
        <Text c="dimmed" maw={420}>
          {children}
        </Text>
      )}
      {action}
    </Stack>
  );
}
