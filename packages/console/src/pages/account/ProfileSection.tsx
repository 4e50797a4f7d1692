import { Badge, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { accountKeys } from "../../api/keys";
import { useSessionStore, useUser } from "../../api/session";
import { ApiErrorAlert, formatAbsolute } from "../../components";
import { Section } from "./Section";
import { useUpdateProfile } from "./api";

const DATE_FORMATS = ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "MMM D, YYYY"];
const zones = (): string[] => {
  const f = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  return f ? ["UTC", ...f("timeZone").filter((z) => z !== "UTC")] : ["UTC"];
};

/** Name, timezone and date/time formats (`PATCH /auth/me`); the formats drive every time the console shows. */
export function ProfileSection() {
  const user = useUser();
  const store = useSessionStore();
  const [displayName, setDisplayName] = useState(user.display_name);
  const [timezone, setTimezone] = useState(user.timezone ?? "");
  const [dateFormat, setDateFormat] = useState(user.date_format ?? "");
  const [timeFormat, setTimeFormat] = useState(user.time_format ?? "");
  const save = useUpdateProfile({
    invalidates: [accountKeys.datetime()],
    onSuccess: (u) => {
      store.setUser(u);
      notifications.show({ color: "green", message: "Profile saved" });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      display_name: displayName,
      ...(timezone ? { timezone } : {}),
      ...(dateFormat ? { date_format: dateFormat } : {}),
      ...(timeFormat === "12h" || timeFormat === "24h" ? { time_format: timeFormat } : {}),
    });
  };
  const sample = formatAbsolute(new Date(), {
    timezone: timezone || "UTC",
    date_format: dateFormat || "YYYY-MM-DD",
    time_format: timeFormat || "24h",
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
      <form onSubmit={submit}>
        <Stack>
          <ApiErrorAlert error={save.error} />
          <TextInput label="Name" required value={displayName} onChange={(e) => setDisplayName(e.currentTarget.value)} />
          <Select
            label="Timezone"
            searchable
            data={zones()}
            value={timezone || null}
            onChange={(v) => setTimezone(v ?? "")}
            placeholder="Server default"
            clearable
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select
              label="Date format"
              data={DATE_FORMATS}
              value={dateFormat || null}
              onChange={(v) => setDateFormat(v ?? "")}
              placeholder="Server default"
              clearable
            />
            <Select
              label="Time format"
              data={[
                { value: "24h", label: "24-hour" },
                { value: "12h", label: "12-hour" },
              ]}
              value={timeFormat || null}
              onChange={(v) => setTimeFormat(v ?? "")}
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
