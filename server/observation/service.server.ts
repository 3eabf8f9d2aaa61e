export * from "./service";
export * from "./files";
