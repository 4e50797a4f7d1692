import { Alert, Center, Loader, Stack, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams } from "react-router";
import { accountKeys } from "../../api/keys";
import { useSession } from "../../api/session";
import { ApiErrorAlert } from "../../components";
import { AuthFooter } from "./AuthFooter";
import { useVerifyEmail } from "./api";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/** `/verify-email/<token>` (the confirmation mail's link): confirms the address once (`GET /auth/verify-email/:token`). */
export default function VerifyEmailPage() {
  const { token = "" } = useParams();
  const signedIn = useSession().status === "signed-in";
  const queryClient = useQueryClient();
  // a query, not an effect: the token works once, and the cache keeps StrictMode or a re-render from asking twice
  const q = useVerifyEmail(
    { token },
    {
      retry: false,
      staleTime: Infinity,
      gcTime: Infinity,
    },
  );
  useDocumentTitle("Confirm your email");
  useEffect(() => {
    if (q.isSuccess && signedIn) void queryClient.invalidateQueries({ queryKey: accountKeys.all });
  }, [q.isSuccess, signedIn, queryClient]);

  return (
    <Stack>
      <Title order={1} size="h3">
        Confirm your email address
      </Title>
      {q.isPending ? (
        <Center py="md">
          <Loader role="status" aria-label="Confirming" />
        </Center>
      ) : q.isError ? (
        <ApiErrorAlert error={q.error} title="This link does not work" />
      ) : (
        <Alert role="status" color="green" variant="light" title="Email address confirmed">
          Thank you, your address is confirmed.
        </Alert>
      )}
      {!q.isPending && <AuthFooter links={[signedIn ? { to: "/", label: "Go to the console" } : { to: "/login", label: "Sign in" }]} />}
    </Stack>
  );
}
