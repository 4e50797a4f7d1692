import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from "@mantine/core";
import { useSsoStatus } from "../api/auth";
import { describePolicy } from "../lib/password-policy";

/**
 * The fields a person types their account into, alike on every form that asks (sign-in,
 * registration, password reset, the account page, first-run setup): the label, the browser's
 * autofill hint and the required mark; the form's own props (`form.getInputProps(…)`) go on top.
 */

/** The account's email address (autofilled as the user name). */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" type="email" autoComplete="username" required {...props} />;
}

/** The password the account has now ("Password" unless told). */
export function CurrentPasswordField({ label = "Password", ...props }: PasswordInputProps) {
  return <PasswordInput label={label} autoComplete="current-password" required {...props} />;
}

/**
 * A password being chosen ("Password" unless told), with the API's password rules in words under
 * it (`GET /auth/sso-status`); `repeat` for the field it is typed again into, which shows no rules.
 */
export function NewPasswordField({ label = "Password", repeat = false, ...props }: PasswordInputProps & { repeat?: boolean }) {
  const policy = useSsoStatus().data?.password_policy;
  return (
    <PasswordInput
      label={label}
      autoComplete="new-password"
      required
      description={repeat ? undefined : describePolicy(policy)}
      {...props}
    />
  );
}

/** The rule of a password typed twice: the message under the second field when they differ. */
export const samePassword = (password: string, again: string): string | undefined =>
  password !== again ? "The two passwords differ." : undefined;
