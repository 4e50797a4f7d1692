import { Alert, Button, Center, Divider, List, Loader, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { workspaceKeys } from "../../api/keys";
import { useSession } from "../../api/session";
import { ApiErrorAlert, Time } from "../../components";
import { RegisterForm } from "./RegisterForm";
import { AuthFooter } from "./AuthFooter";
import { useFinishSignIn } from "../../api/auth";
import { useInvitePreview, useAcceptInvite } from "./api";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/**
 * `/invites/<token>` (the invite mail's link): the invite's preview (`GET /invites/:token/preview`),
 * then accept it signed in (`POST /invites/:token/accept`) or create an account with it
 * (`POST /auth/register` with `invite_token`).
 */
export default function InvitePage() {
  const { token = "" } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const finish = useFinishSignIn();
  const queryClient = useQueryClient();
  const preview = useInvitePreview(
    { token },
    {
      retry: false,
    },
  );
  const accept = useAcceptInvite(
    { token },
    {
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: workspaceKeys.orgs() });
        void navigate("/", { replace: true });
      },
    },
  );
  useDocumentTitle("Invitation");

  if (preview.isPending)
    return (
      <Center py="md">
        <Loader role="status" aria-label="Loading the invitation" />
      </Center>
    );
  if (preview.isError)
    return (
      <Stack>
        <Title order={1} size="h3">
          Invitation
        </Title>
        <ApiErrorAlert error={preview.error} title="This invitation cannot be used" />
        <AuthFooter links={[{ to: "/login", label: "Go to sign in" }]} />
      </Stack>
    );

  const invite = preview.data;
  const here = `/invites/${encodeURIComponent(token)}`;
  const otherAccount = session.status === "signed-in" && session.user.email.toLowerCase() !== invite.email.toLowerCase();
  return (
    <Stack>
      <Title order={1} size="h3">
        Join {invite.org_name}
      </Title>
      <Text>
        {invite.email} is invited to <strong>{invite.org_name}</strong> as {invite.org_role}.
      </Text>
      {invite.team_assignments.length > 0 && (
        <List size="sm" aria-label="Teams">
          {invite.team_assignments.map((t) => (
            <List.Item key={t.team_id}>
              {t.team_name} ({t.team_role})
            </List.Item>
          ))}
        </List>
      )}
      <Text size="sm" c="dimmed">
        The invitation expires <Time value={invite.expires_at} />.
      </Text>
      {session.status === "signed-in" ? (
        <>
          {otherAccount && (
            <Alert color="yellow" variant="light">
              You are signed in as {session.user.email}, but the invitation is for {invite.email}.
            </Alert>
          )}
          <ApiErrorAlert error={accept.error} />
          <Button onClick={() => accept.mutate()} loading={accept.isPending}>
            Accept the invitation
          </Button>
        </>
      ) : (
        <>
          <Button component={Link} to={`/login?next=${encodeURIComponent(here)}`} variant="default">
            I have an account: sign in to accept
          </Button>
          <Divider label="or create an account" labelPosition="center" />
          <RegisterForm inviteToken={token} fixedEmail={invite.email} onRegistered={(r) => finish(r, "/")} />
        </>
      )}
    </Stack>
  );
}
