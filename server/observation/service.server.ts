export * from "./service";
export * from "./files";
export * from "./transfer";
