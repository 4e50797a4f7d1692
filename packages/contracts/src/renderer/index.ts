export * from "./render.rpc";
