import { redirect } from "react-router";

export function loader() {
  return redirect("/home/description/protocole/description_systeme");
}
