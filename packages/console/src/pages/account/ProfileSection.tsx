import { Badge, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { UpdateMeBody } from "@burnbox/contracts/src/identity/account.schemas";
import { accountKeys } from "../../api/keys";
import { useSessionStore, useUser } from "../../api/session";
import { ApiErrorAlert, formatAbsolute } from "../../components";
import { useContractForm } from "../../lib/contract-form";
import { Section } from "./Section";
import { useUpdateProfile, type UpdateMe } from "./api";

const DATE_FORMATS = ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "MMM D, YYYY"];
const zones = (): string[] => {
  const f = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  return f ? ["UTC", ...f("timeZone").filter((z) => z !== "UTC")] : ["UTC"];
};

interface Profile extends Record<string, unknown> {
  display_name: string;
  timezone: string;
  date_format: string;
  time_format: string;
}

/** The body `PATCH /auth/me` takes: the name, and each setting only when one is chosen (else the server's default holds). */
const bodyOf = (v: Profile): UpdateMe => {
  const time_format = v.time_format === "12h" || v.time_format === "24h" ? v.time_format : undefined;
  return {
    display_name: v.display_name,
    ...(v.timezone ? { timezone: v.timezone } : {}),
    ...(v.date_format ? { date_format: v.date_format } : {}),
    ...(time_format ? { time_format } : {}),
  };
};

/** A setting's Select: nothing chosen (cleared) is the server's default, kept as "". */
const chosen = ({ value, onChange, ...props }: { value?: unknown; onChange: (v: unknown) => void }) => ({
  ...props,
  value: typeof value === "string" && value ? value : null,
  onChange: (v: string | null) => onChange(v ?? ""),
});

/** Name, timezone and date/time formats (`PATCH /auth/me`); the formats drive every time the console shows. */
export function ProfileSection() {
  const user = useUser();
  const store = useSessionStore();
  const form = useContractForm<Profile>(
    UpdateMeBody,
    {
      display_name: user.display_name,
      timezone: user.timezone ?? "",
      date_format: user.date_format ?? "",
      time_format: user.time_format ?? "",
    },
    { toBody: bodyOf },
  );
  const save = useUpdateProfile({
    invalidates: [accountKeys.datetime()],
    onSuccess: (u) => {
      store.setUser(u);
      notifications.show({ color: "green", message: "Profile saved" });
    },
  });
  const { timezone, date_format, time_format } = form.values;
  const sample = formatAbsolute(new Date(), {
    timezone: timezone || "UTC",
    date_format: date_format || "YYYY-MM-DD",
    time_format: time_format || "24h",
  });
  return (
    <Section id="profile" title="Profile">
      <Group gap="xs">
        <Text size="sm">{user.email}</Text>
        {user.email_verified ? (
          <Badge color="green" variant="light">
            confirmed
          </Badge>
        ) : (
          <Badge color="yellow" variant="light">
            not confirmed
          </Badge>
        )}
      </Group>
      <form onSubmit={form.onSubmit((v) => save.mutate(bodyOf(v)))}>
        <Stack>
          <ApiErrorAlert error={save.error} />
          <TextInput label="Name" required {...form.getInputProps("display_name")} />
          <Select
            label="Timezone"
            searchable
            data={zones()}
            {...chosen(form.getInputProps("timezone"))}
            placeholder="Server default"
            clearable
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select
              label="Date format"
              data={DATE_FORMATS}
              {...chosen(form.getInputProps("date_format"))}
              placeholder="Server default"
              clearable
            />
            <Select
              label="Time format"
              data={[
                { value: "24h", label: "24-hour" },
                { value: "12h", label: "12-hour" },
              ]}
              {...chosen(form.getInputProps("time_format"))}
              placeholder="Server default"
              clearable
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            Times will read like {sample}.
          </Text>
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
