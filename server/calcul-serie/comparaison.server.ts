// The server-only entry of ./comparaison for route modules.
export * from "./comparaison";
