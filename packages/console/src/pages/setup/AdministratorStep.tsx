import { PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import { describePolicy, type PasswordPolicy } from "../../lib/password-policy";
import { StepButtons } from "./StepButtons";

export interface Admin {
  display_name: string;
  email: string;
  password: string;
}

/** Step 2: the first account (a system administrator, the owner of the first org); the password typed twice. */
export function AdministratorStep({
  admin,
  setAdmin,
  confirm,
  setConfirm,
  policy,
  error,
  setError,
  next,
  back,
}: {
  admin: Admin;
  setAdmin: (admin: Admin) => void;
  confirm: string;
  setConfirm: (confirm: string) => void;
  policy: PasswordPolicy | undefined;
  error: unknown;
  setError: (error: unknown) => void;
  next: (e: FormEvent) => void;
  back: () => void;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (confirm !== admin.password) return setError(new Error("The two passwords differ."));
        next(e);
      }}
    >
      <Stack mt="md">
        <Text size="sm">The first account is a system administrator and the owner of the first organization.</Text>
        <ApiErrorAlert error={error} />
        <TextInput
          label="Name"
          autoComplete="name"
          required
          value={admin.display_name}
          onChange={(e) => setAdmin({ ...admin, display_name: e.currentTarget.value })}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={admin.email}
          onChange={(e) => setAdmin({ ...admin, email: e.currentTarget.value })}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          required
          description={describePolicy(policy)}
          value={admin.password}
          onChange={(e) => setAdmin({ ...admin, password: e.currentTarget.value })}
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
        />
        <StepButtons onBack={back} />
      </Stack>
    </form>
  );
}
