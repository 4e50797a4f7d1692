import { MessageBody, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { ChangePasswordBody, DatetimeSettings, DeleteMeBody, UpdateMeBody, User } from "./account.schemas";

/** The caller's own account (`/auth/me`). */
export const accountRoutes = defineRoutes({ service: "identity", tag: "Auth" }, [
  {
    operationId: "getMe",
    method: "get",
    path: "/auth/me",
    auth: "authenticated",
    summary: "The signed-in user",
    responses: { 200: { description: "The user", schema: User }, 401: errorResponses[401] },
  },
  {
    operationId: "updateMe",
    method: "patch",
    path: "/auth/me",
    auth: "user_only",
    summary: "Change display name and date/time preferences",
    request: { body: UpdateMeBody },
    responses: { 200: { description: "The user", schema: User }, 400: errorResponses[400] },
  },
  {
    operationId: "deleteMe",
    method: "delete",
    path: "/auth/me",
    auth: "user_only",
    summary: "Delete one's own account (password required)",
    request: { body: DeleteMeBody },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 401: errorResponses[401] },
  },
  {
    operationId: "changePassword",
    method: "put",
    path: "/auth/me/password",
    auth: "user_only",
    summary: "Change password; every other session is revoked",
    request: { body: ChangePasswordBody },
    responses: { 200: { description: "Changed", schema: MessageBody }, 400: errorResponses[400], 401: errorResponses[401] },
  },
  {
    operationId: "datetimeSettings",
    method: "get",
    path: "/auth/datetime-settings",
    auth: "authenticated",
    summary: "The caller's timezone and date/time formats (with defaults)",
    responses: { 200: { description: "Settings", schema: DatetimeSettings } },
  },
] as const);
