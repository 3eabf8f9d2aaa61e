import { Outlet } from "react-router";
import { RouteErrorPage } from "~/components/shell/route-error";

/** Every screen under /home: a failed one gives way to the error page inside the shell (header, menu, context bar). */
export default function ShellBoundary() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorPage;
