import type { IntrantDetail } from "~/domain/intrant";
import type { RecolteDetail } from "~/domain/recolte";
import type { InterventionRow } from "./types";

/**
 * The interventions screen's rows as its loader sends them (decision 0076, issue 11): one JSON text in columns of
 * numbers, every text (dates, input and harvest names, units) once in a table and named by its place, the stamps as
 * milliseconds after the oldest, the three flags in one number, the inputs and harvests in flat columns with a count
 * per row. React Router's encoding of the loader's answer (turbo-stream), its gzip and the garbage they leave cost in
 * proportion to the text: 2,000 interventions with 1,576 inputs take about 120 kB instead of 320 kB as generic packed
 * rows (app/components/grid/packed-rows.ts), and the text holds few quotes for turbo-stream to escape.
 *
 * Stamps travel as numbers: `updatedAt` is always an ISO text made by Date.toISOString (server/db/dialect.ts toIso),
 * which the milliseconds give back exactly. Kept per campaign version by server/intervention/rows-cache.ts.
 */
export type EncodedInterventions = string & { readonly __encodedInterventions?: true };

type Columns = {
  /** Format, moved on when the columns change. */
  v: 1;
  /** Texts, named by their place. */
  s: string[];
  id: number[];
  /** The oldest stamp (ms); `t` each row's stamp after it. */
  t0: number;
  t: number[];
  p: number[];
  /** Date: place in `s`. */
  d: number[];
  o: (number | null)[];
  c: (number | null)[];
  db: (number | null)[];
  f: number[];
  ts: number[];
  np: (number | null)[];
  /** realisee 1, prevue 2, rdd 4. */
  b: number[];
  /** Inputs per row, then theirs in `i`: id, type, name (place), quantity, unit (place or null), folder input or null. */
  ni: number[];
  i: (number | null)[];
  /** Harvests per row, then theirs in `r`: id, name (place), yield, unit (place). */
  nr: number[];
  r: (number | null)[];
};

const FORMAT = 1;
const INPUT = 6;
const HARVEST = 4;

export function encodeInterventions(rows: readonly InterventionRow[]): EncodedInterventions {
  const texts: string[] = [];
  const places = new Map<string, number>();
  const place = (text: string) => {
    let at = places.get(text);
    if (at === undefined) {
      at = texts.length;
      texts.push(text);
      places.set(text, at);
    }
    return at;
  };
  const stamps = rows.map((r) => Date.parse(r.updatedAt));
  let t0 = stamps.length ? stamps[0] : 0;
  for (const t of stamps) if (t < t0) t0 = t;
  const out: Columns = { v: FORMAT, s: texts, id: [], t0, t: [], p: [], d: [], o: [], c: [], db: [], f: [], ts: [], np: [], b: [], ni: [], i: [], nr: [], r: [] };
  rows.forEach((row, k) => {
    out.id.push(row.id);
    out.t.push(stamps[k] - t0);
    out.p.push(row.idParcelle);
    out.d.push(place(row.date));
    out.o.push(row.idOperationCulturale);
    out.c.push(row.idCultureConcernee);
    out.db.push(row.debit);
    out.f.push(row.frequence);
    out.ts.push(row.tauxSurface);
    out.np.push(row.nombrePassage);
    out.b.push((row.realisee ? 1 : 0) | (row.prevue ? 2 : 0) | (row.rdd ? 4 : 0));
    out.ni.push(row.intrants.length);
    for (const x of row.intrants) out.i.push(x.id, x.type, place(x.libelle), x.quantite, x.unite == null ? null : place(x.unite), x.idIntrantDossier ?? null);
    out.nr.push(row.recoltes.length);
    for (const x of row.recoltes) out.r.push(x.id, place(x.libelle), x.rendement, place(x.unite));
  });
  return JSON.stringify(out) as EncodedInterventions;
}

export function decodeInterventions(encoded: EncodedInterventions): InterventionRow[] {
  const c = JSON.parse(encoded) as Columns;
  if (c.v !== FORMAT) throw new Error(`interventions rows: unknown format ${String(c.v)}`);
  const s = c.s;
  const rows: InterventionRow[] = new Array(c.id.length);
  let i = 0;
  let r = 0;
  for (let k = 0; k < c.id.length; k++) {
    const intrants: IntrantDetail[] = [];
    for (let n = 0; n < c.ni[k]; n++, i += INPUT) {
      const unite = c.i[i + 4];
      const dossier = c.i[i + 5];
      const x: IntrantDetail = { id: c.i[i] as number, type: c.i[i + 1] as number, libelle: s[c.i[i + 2] as number], quantite: c.i[i + 3], unite: unite == null ? null : s[unite] };
      if (dossier != null) x.idIntrantDossier = dossier;
      intrants.push(x);
    }
    const recoltes: RecolteDetail[] = [];
    for (let n = 0; n < c.nr[k]; n++, r += HARVEST) {
      recoltes.push({ id: c.r[r] as number, libelle: s[c.r[r + 1] as number], rendement: c.r[r + 2], unite: s[c.r[r + 3] as number] });
    }
    const b = c.b[k];
    rows[k] = {
      id: c.id[k], updatedAt: new Date(c.t0 + c.t[k]).toISOString(), idParcelle: c.p[k], date: s[c.d[k]],
      idOperationCulturale: c.o[k], idCultureConcernee: c.c[k], debit: c.db[k], frequence: c.f[k], tauxSurface: c.ts[k], nombrePassage: c.np[k],
      realisee: (b & 1) !== 0, prevue: (b & 2) !== 0, intrants, recoltes, rdd: (b & 4) !== 0,
    };
  }
  return rows;
}
