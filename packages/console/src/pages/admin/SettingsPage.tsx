import { Stack } from "@mantine/core";
import { PageHeader } from "../../components";
import { AdminGate } from "./AdminGate";
import { MailerSection, StorageSection } from "./InfraSections";
import { PlatformSection } from "./PlatformSection";

const TITLE = "Platform settings";

export default function SettingsPage() {
  return (
    <AdminGate title={TITLE}>
      <PageHeader title={TITLE} description="Rules for the whole installation, and where it sends mail and keeps attachments." />
      <Stack gap="xl">
        <PlatformSection />
        <MailerSection />
        <StorageSection />
      </Stack>
    </AdminGate>
  );
}
