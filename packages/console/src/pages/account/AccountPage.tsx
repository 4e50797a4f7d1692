import { Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { PageHeader } from "../../components";
import { DeleteAccountSection } from "./DeleteAccountSection";
import { PasswordSection } from "./PasswordSection";
import { ProfileSection } from "./ProfileSection";
import { SessionsSection } from "./SessionsSection";
import { SsoSection } from "./SsoSection";

/** `/account`: the signed-in user's profile, password, sessions, linked SSO identities, and deletion. */
export default function AccountPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // back from linking an identity at a provider (`/settings#sso_linked=<name>` lands here)
  useEffect(() => {
    const linked = new URLSearchParams(location.hash.slice(1)).get("sso_linked");
    if (linked) {
      notifications.show({ color: "green", title: "Identity linked", message: `You can now sign in with ${linked}.` });
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    }
  }, [location, navigate]);
  return (
    <Stack maw={760}>
      <PageHeader title="Account" description="Your profile, password, sessions and sign-in methods." />
      <ProfileSection />
      <PasswordSection />
      <SessionsSection />
      <SsoSection />
      <DeleteAccountSection />
    </Stack>
  );
}
