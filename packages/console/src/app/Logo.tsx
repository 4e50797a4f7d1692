import { Group, Text, UnstyledButton } from "@mantine/core";
import { IconFlame } from "@tabler/icons-react";
import { Link } from "react-router";

export function Logo() {
  return (
    <UnstyledButton component={Link} to="/" aria-label="BurnBox home">
      <Group gap={6} wrap="nowrap">
        <IconFlame size={24} stroke={1.8} color="var(--mantine-color-ember-6)" aria-hidden />
        <Text fw={700} size="lg" component="span">
          BurnBox
        </Text>
      </Group>
    </UnstyledButton>
  );
}
