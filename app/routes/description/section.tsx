import { Outlet } from "react-router";

export default function DescriptionLayout() {
  return <Outlet />;
}
