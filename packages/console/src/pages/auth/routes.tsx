// Signing in in every form, and the pages that mail and redirect links open (spec extensions 4).
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "auth",
  publicRoutes: [
    { path: "/login", lazy: page(() => import("./LoginPage")) },
    { path: "/register", lazy: page(() => import("./RegisterPage")) },
    { path: "/forgot-password", lazy: page(() => import("./ForgotPasswordPage")) },
    { path: "/reset-password", lazy: page(() => import("./ResetPasswordPage")) },
    { path: "/verify-email/:token", lazy: page(() => import("./VerifyEmailPage")) },
    { path: "/invites/:token", lazy: page(() => import("./InvitePage")) },
  ],
});
