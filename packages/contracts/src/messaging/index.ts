export * from "./envelope";
export * from "./events";
export * from "./rpc";
export * from "./subjects";
