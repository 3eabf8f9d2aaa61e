export * from "./selection";
