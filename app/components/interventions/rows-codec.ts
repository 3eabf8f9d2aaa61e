import type { IntrantDetail } from "~/domain/intrant";
import type { RecolteDetail } from "~/domain/recolte";
import type { InterventionRow } from "./types";

/**
 * The interventions screen's rows as its loader sends them (decision 0076, issue 11): one JSON text in columns of
 * numbers, every text (dates, input and harvest names, units) once in a table and named by its place, the stamps as
 * milliseconds after the oldest, the ids as differences, the three flags in one number, a column of mostly equal values
 * as runs, the inputs and harvests in flat columns with a count per row. React Router's encoding of the loader's answer (turbo-stream), its gzip and the garbage they leave cost in
 * proportion to the text: 2,000 interventions with 1,576 inputs take about 120 kB instead of 320 kB as generic packed
 * rows (the earlier packed rows, removed); about 85 kB with the runs and id differences, and the text holds few quotes for turbo-stream to escape.
 *
 * Stamps travel as numbers: `updatedAt` is always an ISO text made by Date.toISOString (server/db/dialect.ts toIso),
 * which the milliseconds give back exactly. Kept per campaign version by server/intervention/rows-cache.ts.
 */
export type EncodedInterventions = string & { readonly __encodedInterventions?: true };

/** A column of one value per row: as is, or as runs (`{ r: [value, count, value, count, …] }`) when shorter. */
type Column<T> = T[] | { r: (T | number)[] };

type Columns = {
  /** Format, moved on when the columns change. */
  v: 2;
  /** Texts, named by their place. */
  s: string[];
  /** Ids: the first, then each as the difference from the one before. */
  id: number[];
  /** The oldest stamp (ms); `t` each row's stamp after it. */
  t0: number;
  t: number[];
  p: Column<number>;
  /** Date: place in `s`. */
  d: Column<number>;
  o: Column<number | null>;
  c: Column<number | null>;
  db: Column<number | null>;
  f: Column<number>;
  ts: Column<number>;
  np: Column<number | null>;
  /** realisee 1, prevue 2, rdd 4. */
  b: Column<number>;
  /** Inputs per row, then theirs in `i`: id, type, name (place), quantity, unit (place or null), folder input or null. */
  ni: Column<number>;
  i: (number | null)[];
  /** Harvests per row, then theirs in `r`: id, name (place), yield, unit (place). */
  nr: Column<number>;
  r: (number | null)[];
};

const FORMAT = 2;

/** Runs of equal values, kept when they take less than half the values (frequencies, rates and flags mostly repeat). */
function column<T>(values: T[]): Column<T> {
  const runs: (T | number)[] = [];
  for (let k = 0; k < values.length; ) {
    let n = 1;
    while (k + n < values.length && values[k + n] === values[k]) n++;
    runs.push(values[k], n);
    k += n;
    if (runs.length > values.length) return values;
  }
  return { r: runs };
}

function expand<T>(col: Column<T>, length: number): T[] {
  if (Array.isArray(col)) return col;
  const out: T[] = new Array(length);
  let k = 0;
  for (let j = 0; j < col.r.length; j += 2) {
    const v = col.r[j] as T;
    for (let n = col.r[j + 1] as number; n > 0; n--) out[k++] = v;
  }
  return out;
}
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
  const out = { s: texts, id: [] as number[], t: [] as number[], p: [] as number[], d: [] as number[], o: [] as (number | null)[], c: [] as (number | null)[], db: [] as (number | null)[],
    f: [] as number[], ts: [] as number[], np: [] as (number | null)[], b: [] as number[], ni: [] as number[], i: [] as (number | null)[], nr: [] as number[], r: [] as (number | null)[] };
  rows.forEach((row, k) => {
    out.id.push(k === 0 ? row.id : row.id - rows[k - 1].id);
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
  const columns: Columns = {
    v: FORMAT, s: texts, id: out.id, t0, t: out.t, p: column(out.p), d: column(out.d), o: column(out.o), c: column(out.c), db: column(out.db),
    f: column(out.f), ts: column(out.ts), np: column(out.np), b: column(out.b), ni: column(out.ni), i: out.i, nr: column(out.nr), r: out.r,
  };
  return JSON.stringify(columns) as EncodedInterventions;
}

export function decodeInterventions(encoded: EncodedInterventions): InterventionRow[] {
  const e = JSON.parse(encoded) as Columns;
  if (e.v !== FORMAT) throw new Error(`interventions rows: unknown format ${String(e.v)}`);
  const s = e.s;
  const length = e.id.length;
  const c = {
    i: e.i, r: e.r, t0: e.t0, t: e.t, p: expand(e.p, length), d: expand(e.d, length), o: expand(e.o, length), c: expand(e.c, length), db: expand(e.db, length),
    f: expand(e.f, length), ts: expand(e.ts, length), np: expand(e.np, length), b: expand(e.b, length), ni: expand(e.ni, length), nr: expand(e.nr, length),
  };
  const rows: InterventionRow[] = new Array(length);
  let i = 0;
  let r = 0;
  let id = 0;
  for (let k = 0; k < length; k++) {
    id += e.id[k];
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
      id, updatedAt: new Date(c.t0 + c.t[k]).toISOString(), idParcelle: c.p[k], date: s[c.d[k]],
      idOperationCulturale: c.o[k], idCultureConcernee: c.c[k], debit: c.db[k], frequence: c.f[k], tauxSurface: c.ts[k], nombrePassage: c.np[k],
      realisee: (b & 1) !== 0, prevue: (b & 2) !== 0, intrants, recoltes, rdd: (b & 4) !== 0,
    };
  }
  return rows;
}
