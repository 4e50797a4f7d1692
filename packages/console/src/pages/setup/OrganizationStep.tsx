import { Stack, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import type { SetupForm } from "./setup-form";
import { StepButtons } from "./StepButtons";

/** Step 3: the first org, with an optional first team and domain. */
export function OrganizationStep({
  form,
  error,
  next,
  back,
}: {
  form: SetupForm;
  error: unknown;
  next: (e: FormEvent) => void;
  back: () => void;
}) {
  return (
    <form onSubmit={next}>
      <Stack mt="md">
        <ApiErrorAlert error={error} />
        <TextInput label="Organization name" required {...form.getInputProps("org.name")} />
        <TextInput
          label="First team (optional)"
          description="Inboxes, API keys and webhooks belong to a team."
          {...form.getInputProps("team.name")}
        />
        <TextInput
          label="First domain (optional)"
          description="The domain inboxes get their addresses on, e.g. mail.example.com. You verify it with DNS records afterwards."
          {...form.getInputProps("domain.domain_name")}
        />
        <StepButtons onBack={back} />
      </Stack>
    </form>
  );
}
