import { redirect } from "react-router";
import type { Route } from "./+types/logout";

export async function action({ request }: Route.ActionArgs) {
  const { endSession } = await import("../../server/auth/session");
  return redirect("/login", { headers: { "Set-Cookie": await endSession(request) } });
}

export function loader() {
  return redirect("/login");
}
