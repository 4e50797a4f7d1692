// The signed-in user's own account: profile, password, sessions, SSO identities, deletion.
import { IconUserCircle } from "@tabler/icons-react";
import { Navigate, useLocation } from "react-router";
import { defineArea, page } from "../../app/area";

/** `/settings` is where identity sends the browser after linking an SSO identity (`#sso_linked=`). */
function ToAccount() {
  const { hash } = useLocation();
  return <Navigate to={{ pathname: "/account", hash }} replace />;
}

export default defineArea({
  id: "account",
  nav: [{ label: "Account", to: "/account", icon: IconUserCircle, order: 900 }],
  routes: [
    { path: "/account", lazy: page(() => import("./AccountPage")) },
    { path: "/settings", element: <ToAccount /> },
  ],
});
