import { Stack, Text, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import { EmailField, NewPasswordField } from "../../components/AccountFields";
import type { SetupForm } from "./setup-form";
import { StepButtons } from "./StepButtons";

/** Step 2: the first account (a system administrator, the owner of the first org); the password typed twice. */
export function AdministratorStep({
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
        <Text size="sm">The first account is a system administrator and the owner of the first organization.</Text>
        <ApiErrorAlert error={error} />
        <TextInput label="Name" autoComplete="name" required {...form.getInputProps("admin.display_name")} />
        <EmailField {...form.getInputProps("admin.email")} />
        <NewPasswordField {...form.getInputProps("admin.password")} />
        <NewPasswordField label="Repeat the password" repeat {...form.getInputProps("confirm")} />
        <StepButtons onBack={back} />
      </Stack>
    </form>
  );
}
