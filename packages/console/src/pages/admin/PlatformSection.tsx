import { Button, Center, Group, Loader, NumberInput, SegmentedControl, Stack, Switch, Text, TextInput } from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { UpdatePlatformBody } from "@burnbox/contracts/src/identity/platform.schemas";
import { useContractForm } from "../../lib/contract-form";
import { useValuesFrom } from "../../lib/use-values-from";
import { ApiErrorAlert } from "../../components";
import { adminKeys } from "./keys";
import { notify } from "../../lib/notify";
import { Section } from "./Section";
import { usePlatformSettings, useSavePlatformSettings, type PlatformUpdate } from "./api";

type Platform = components["schemas"]["PlatformSettings"];
type Demo = "on" | "off" | "config";

type Draft = {
  allow_registration: boolean;
  demo: Demo;
  default_inbox_ttl: string;
  max_inbox_ttl: string;
  max_sessions_per_user: number | string;
};

const draftOf = (p: Platform): Draft => ({
  allow_registration: p.allow_registration,
  demo: p.demo_enabled ? "on" : "off",
  default_inbox_ttl: p.default_inbox_ttl,
  max_inbox_ttl: p.max_inbox_ttl,
  max_sessions_per_user: p.max_sessions_per_user,
});

/**
 * Only what changed is sent (PUT merges): the GET shows the demo in effect, so sending it back
 * unchanged would pin the configuration's value; "From configuration" sends null.
 */
export function changedFields(saved: Platform, d: Draft): PlatformUpdate {
  const body: PlatformUpdate = {};
  if (d.allow_registration !== saved.allow_registration) body.allow_registration = d.allow_registration;
  if (d.demo === "config") body.demo_enabled = null;
  else if ((d.demo === "on") !== saved.demo_enabled) body.demo_enabled = d.demo === "on";
  if (d.default_inbox_ttl.trim() !== saved.default_inbox_ttl) body.default_inbox_ttl = d.default_inbox_ttl.trim();
  if (d.max_inbox_ttl.trim() !== saved.max_inbox_ttl) body.max_inbox_ttl = d.max_inbox_ttl.trim();
  if (Number(d.max_sessions_per_user) !== saved.max_sessions_per_user) body.max_sessions_per_user = Number(d.max_sessions_per_user);
  return body;
}

export function PlatformSection() {
  const q = usePlatformSettings();
  return (
    <Section title="Platform" description="Who may sign up, the public demo, and the defaults every organization starts from.">
      <ApiErrorAlert error={q.error} />
      {!q.data ? (
        q.isPending && (
          <Center py="md">
            <Loader aria-label="Loading platform settings" />
          </Center>
        )
      ) : (
        <PlatformForm saved={q.data} />
      )}
    </Section>
  );
}

/** The settings as saved (`saved`, read again after each save) and what the admin changes of them. */
function PlatformForm({ saved }: { saved: Platform }) {
  const form = useContractForm<Draft>(UpdatePlatformBody, draftOf(saved), { toBody: (d) => changedFields(saved, d) });
  useValuesFrom(saved, draftOf, form.setValues);
  const save = useSavePlatformSettings({
    invalidates: [adminKeys.platform()],
    onSuccess: () => notify("Platform settings saved"),
  });
  const draft = form.getValues();
  const changes = changedFields(saved, draft);
  const set = (patch: Partial<Draft>) => form.setValues(patch);

  return (
    <form onSubmit={form.onSubmit((d) => save.mutate(changedFields(saved, d)))}>
      <Stack gap="md" maw={560}>
        <Switch
          label="Allow registration"
          description="When off, only invited people and single sign-on can create accounts."
          {...form.getInputProps("allow_registration", { type: "checkbox" })}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="demo-label">
            Public demo
          </Text>
          <SegmentedControl
            aria-labelledby="demo-label"
            value={draft.demo}
            onChange={(v) => set({ demo: v })}
            data={[
              { value: "on", label: "On" },
              { value: "off", label: "Off" },
              { value: "config", label: "From configuration" },
            ]}
          />
          <Text size="xs" c="dimmed">
            In effect now: {saved.demo_enabled ? "on" : "off"}. “From configuration” hands it back to the service’s demo.enabled.
          </Text>
        </Stack>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label="Default inbox lifetime" description="e.g. 10m, 2h, 7d" {...form.getInputProps("default_inbox_ttl")} miw={200} />
          <TextInput
            label="Maximum inbox lifetime"
            description="the ceiling for every org and team"
            {...form.getInputProps("max_inbox_ttl")}
            miw={200}
          />
        </Group>
        <Text size="xs" c="dimmed">
          These are the top tier of the lifetime cascade: an organization and then a team may set lower values; the smallest maximum wins.
        </Text>
        <NumberInput
          label="Default session limit"
          description="Sessions a user may hold at once, unless their own cap says otherwise."
          min={1}
          max={1000}
          allowDecimal={false}
          {...form.getInputProps("max_sessions_per_user")}
          maw={260}
        />
        <ApiErrorAlert error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={Object.keys(changes).length === 0}>
            Save platform settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
