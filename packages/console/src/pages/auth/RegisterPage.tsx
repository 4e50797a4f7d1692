import { Stack, Title } from "@mantine/core";
import { Navigate, useSearchParams } from "react-router";
import { useSession } from "../../api/session";
import { RegisterForm } from "./RegisterForm";
import { AuthFooter, withNext } from "./AuthFooter";
import { safeNext } from "../../lib/next";
import { SsoButtons } from "./SsoButtons";
import { useFinishSignIn } from "../../api/auth";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/** `/register`: a new account (a confirmation mail follows, linking to /verify-email/<token>). */
export default function RegisterPage() {
  const session = useSession();
  const finish = useFinishSignIn();
  const [params] = useSearchParams();
  useDocumentTitle("Create an account");
  if (session.status === "signed-in") return <Navigate to={safeNext(params.get("next"))} replace />;
  const next = params.get("next");
  return (
    <Stack>
      <Title order={1} size="h3">
        Create your BurnBox account
      </Title>
      <RegisterForm onRegistered={(r) => finish(r)} />
      <SsoButtons next={safeNext(next)} />
      <AuthFooter lead="Already have an account?" links={[{ to: withNext("/login", next), label: "Sign in" }]} />
    </Stack>
  );
}
