import { Badge, Group, Text } from "@mantine/core";

/** A write-only secret as the API reports it: never the value, only whether one is stored. */
export function SecretState({ set, label }: { set: boolean; label: string }) {
  return (
    <Group gap="xs">
      <Text size="sm">{label}:</Text>
      <Badge variant="light" color={set ? "green" : "gray"}>
        {set ? "set" : "not set"}
      </Badge>
    </Group>
  );
}
