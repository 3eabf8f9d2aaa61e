import { redirect } from "react-router";

export function loader() {
  return redirect("/home/description/prix/prix_approvisionnement");
}
