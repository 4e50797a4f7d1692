/** `@burnbox/service-kit/security`: access decisions, the internal context, the outbound guard, sealed secrets. */
export * from "./authz";
export * from "./inbox-access";
export * from "./secret-box";
export * from "./internal-auth";
export * from "./address-policy";
export * from "./outbound";
