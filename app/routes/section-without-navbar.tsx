import { Outlet } from "react-router";

/** Interoperability and results: the context bar is hidden (spec 1 §2). */
export const handle = { hideNavbar: true };

export default function SectionWithoutNavbar() {
  return <Outlet />;
}

export { RouteErrorPage as ErrorBoundary } from "~/components/shell/route-error";
