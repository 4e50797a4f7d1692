import { defineRoutes } from "../routes/route";
import { PlatformSettings, UpdatePlatformBody } from "./platform.schemas";

export const platformRoutes = defineRoutes({ service: "identity", tag: "Admin" }, [
  {
    operationId: "adminGetPlatform",
    method: "get",
    path: "/admin/platform",
    auth: "system_admin",
    summary: "Platform-wide settings",
    responses: { 200: { description: "Settings", schema: PlatformSettings } },
  },
  {
    operationId: "adminUpdatePlatform",
    method: "put",
    path: "/admin/platform",
    auth: "system_admin",
    summary: "Change platform-wide settings (merged), such as the default session limit",
    request: { body: UpdatePlatformBody },
    responses: { 200: { description: "Settings", schema: PlatformSettings } },
  },
] as const);
