/** Display formats of spec 1 §9: dates day/month/year (A-CONST-11), amounts in euros (A-CONST-12). */
export { formatDate } from "./news-carousel";

const euro = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** "1 234,50 €"; an empty value (null, undefined, NaN) gives "". */
export function formatEuro(n: number | null | undefined): string {
  return typeof n === "number" && Number.isFinite(n) ? euro.format(n) : "";
}
