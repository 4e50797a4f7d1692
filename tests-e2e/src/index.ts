export * from "./system";
export * from "./clients";
export * from "./world";
