import { redirect } from "react-router";
import { endSession } from "../../server/auth/session";
import type { Route } from "./+types/logout";

export async function action({ request }: Route.ActionArgs) {
  return redirect("/login", { headers: { "Set-Cookie": await endSession(request) } });
}

export function loader() {
  return redirect("/login");
}
