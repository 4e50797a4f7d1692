export * from "./system";
export * from "./shared-system";
export * from "./clients";
export * from "./world";
export * from "./fuzz/campaign";
export * from "./dns";
export * from "./rspamd";
