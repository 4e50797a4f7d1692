import { Button, Group } from "@mantine/core";

/** A step's footer: back to the previous step, and its submit button. */
export function StepButtons({ onBack, submit = "Next", busy }: { onBack: () => void; submit?: string; busy?: boolean }) {
  return (
    <Group justify="space-between">
      <Button variant="default" onClick={onBack}>
        Back
      </Button>
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </Group>
  );
}
