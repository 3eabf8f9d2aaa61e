import { Outlet } from "react-router";
import { RouteErrorPage } from "~/components/shell/route-error";

export default function DescriptionLayout() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorPage;
