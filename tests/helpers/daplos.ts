import { DISPOSITIONS } from "../../server/interop/daplos/lecteur";

/** A Daplos record line built from the layout: each value at its field's place (numbers and dates as the caller writes them). */
export function ligneDaplos(type: string, valeurs: Record<string, string>): string {
  const champs = DISPOSITIONS[type].fields;
  const fin = Math.max(...champs.map((f) => f.start + f.length - 1));
  const l = (type + " ".repeat(fin)).slice(0, fin).split("");
  for (const [nom, v] of Object.entries(valeurs)) {
    const f = champs.find((c) => c.name === nom);
    if (!f) throw new Error(`${type}.${nom}`);
    v.slice(0, f.length)
      .padEnd(f.length)
      .split("")
      .forEach((c, i) => (l[f.start - 1 + i] = c));
  }
  return l.join("");
}
