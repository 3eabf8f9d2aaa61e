// The server-only entry of ./service for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./service";
export { OBSERVATIONS_SERIE_ERROR } from "./serie";
