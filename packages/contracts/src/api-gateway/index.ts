import { docsRoutes } from "./docs.routes";

export * from "./docs.schemas";

export const gatewayRoutes = docsRoutes;

/** The routes the API gateway answers itself instead of forwarding. */
export const apiGatewayServiceRoutes = gatewayRoutes;
export * from "./docs.routes";
