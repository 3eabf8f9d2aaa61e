import type { IntrantDetail } from "~/domain/intrant";
import type { RecolteDetail } from "~/domain/recolte";
import type { InterventionRow, InterventionsData, StadeChoix } from "./interventions";

/**
 * The interventions screen's rows as its loader sends them (decisions 0076, 0083; issue 11): one JSON text in columns
 * of numbers, every text (dates, input and harvest names, units) once in a table and named by its place, the stamps
 * as milliseconds after the oldest, the ids as differences, the three flags in one number, a column of mostly equal
 * values as runs, the inputs in their own columns (ids as differences, the folder inputs apart) and the harvests in a
 * flat column, with a count per row. React Router's encoding of the loader's answer (turbo-stream), its gzip, the
 * socket and the browser's decoding cost in proportion to the text: 2,000 interventions with 1,576 inputs take about
 * 40 kB (320 kB as generic packed rows, 85 kB in format 2), and the text holds few quotes for turbo-stream to escape.
 *
 * Stamps travel as numbers: `updatedAt` is always an ISO text made by Date.toISOString (server/db/dialect.ts toIso),
 * which the milliseconds give back exactly. Kept per campaign version by server/intervention/rows-cache.ts.
 */
export type EncodedInterventions = string & { readonly __encodedInterventions?: true };

/** A column of one value per row: as is, or as runs (`{ r: [value, count, value, count, …] }`) when shorter. */
type Column<T> = T[] | { r: (T | number)[] };

type Columns = {
  /** Format, moved on when the columns change. */
  v: 4;
  /** Texts, named by their place. */
  s: string[];
  /** Ids: the first, then each as the difference from the one before. */
  id: number[];
  /** The oldest stamp (ms); `t` each row's stamp after it. */
  t0: number;
  t: Column<number>;
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
  /** Inputs per row; then one value per input, in row order: id (difference from the input before), type, name (place), quantity, unit (place or null). */
  ni: Column<number>;
  ii: number[];
  it: Column<number>;
  in: Column<number>;
  iq: Column<number | null>;
  iu: Column<number | null>;
  /** The inputs made from a folder input: pairs of the input's position among all inputs and the folder input's id. */
  idos: number[];
  /** Harvests per row, then theirs in `r`: id, name (place), yield, unit (place). */
  nr: Column<number>;
  r: (number | null)[];
  /**
   * The register's fields (issue 28), only for the rows that have one: the row's position, then start and end time,
   * free-text stage, contractor's SIRET and seed lot (places or null), the BBCH stage id, early re-entry (1, 0, null).
   */
  g: (number | null)[];
};

const FORMAT = 4;
const REGISTRE = 8;

/** Runs of equal values, kept when they take less than half the values (frequencies, rates and flags mostly repeat). */
function column<T>(values: T[]): Column<T> {
  const runs: (T | number)[] = [];
  for (let k = 0; k < values.length;) {
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
  const out = {
    s: texts,
    id: [] as number[],
    t: [] as number[],
    p: [] as number[],
    d: [] as number[],
    o: [] as (number | null)[],
    c: [] as (number | null)[],
    db: [] as (number | null)[],
    f: [] as number[],
    ts: [] as number[],
    np: [] as (number | null)[],
    b: [] as number[],
    ni: [] as number[],
    nr: [] as number[],
    r: [] as (number | null)[],
    g: [] as (number | null)[],
  };
  const inputs = { ii: [] as number[], it: [] as number[], in: [] as number[], iq: [] as (number | null)[], iu: [] as (number | null)[], idos: [] as number[] };
  let lastInput = 0;
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
    for (const x of row.intrants) {
      if (x.idIntrantDossier != null) inputs.idos.push(inputs.ii.length, x.idIntrantDossier);
      inputs.ii.push(x.id - lastInput);
      lastInput = x.id;
      inputs.it.push(x.type);
      inputs.in.push(place(x.libelle));
      inputs.iq.push(x.quantite);
      inputs.iu.push(x.unite == null ? null : place(x.unite));
    }
    out.nr.push(row.recoltes.length);
    for (const x of row.recoltes) out.r.push(x.id, place(x.libelle), x.rendement, place(x.unite));
    const { heureDebut, heureFin, precisionStade, siretPrestataire, lotSemences, idStadeCulture, rentreeAnticipee } = row;
    if ([heureDebut, heureFin, precisionStade, siretPrestataire, lotSemences, idStadeCulture, rentreeAnticipee].some((v) => v != null)) {
      const text = (v: string | undefined) => (v == null ? null : place(v));
      out.g.push(k, text(heureDebut), text(heureFin), text(precisionStade), text(siretPrestataire), text(lotSemences), idStadeCulture ?? null);
      out.g.push(rentreeAnticipee == null ? null : rentreeAnticipee ? 1 : 0);
    }
  });
  const columns: Columns = {
    v: FORMAT,
    s: texts,
    id: out.id,
    t0,
    t: column(out.t),
    p: column(out.p),
    d: column(out.d),
    o: column(out.o),
    c: column(out.c),
    db: column(out.db),
    f: column(out.f),
    ts: column(out.ts),
    np: column(out.np),
    b: column(out.b),
    ni: column(out.ni),
    ii: inputs.ii,
    it: column(inputs.it),
    in: column(inputs.in),
    iq: column(inputs.iq),
    iu: column(inputs.iu),
    idos: inputs.idos,
    nr: column(out.nr),
    r: out.r,
    g: out.g,
  };
  return JSON.stringify(columns) as EncodedInterventions;
}

export function decodeInterventions(encoded: EncodedInterventions): InterventionRow[] {
  const e = JSON.parse(encoded) as Columns;
  if (e.v !== FORMAT) throw new Error(`interventions rows: unknown format ${String(e.v)}`);
  const s = e.s;
  const length = e.id.length;
  const inputCount = e.ii.length;
  const c = {
    r: e.r,
    t0: e.t0,
    t: expand(e.t, length),
    p: expand(e.p, length),
    d: expand(e.d, length),
    o: expand(e.o, length),
    c: expand(e.c, length),
    db: expand(e.db, length),
    f: expand(e.f, length),
    ts: expand(e.ts, length),
    np: expand(e.np, length),
    b: expand(e.b, length),
    ni: expand(e.ni, length),
    nr: expand(e.nr, length),
    it: expand(e.it, inputCount),
    in: expand(e.in, inputCount),
    iq: expand(e.iq, inputCount),
    iu: expand(e.iu, inputCount),
  };
  const dossiers = new Map<number, number>();
  for (let j = 0; j < e.idos.length; j += 2) dossiers.set(e.idos[j], e.idos[j + 1]);
  const rows: InterventionRow[] = new Array(length);
  let i = 0;
  let inputId = 0;
  let r = 0;
  let id = 0;
  for (let k = 0; k < length; k++) {
    id += e.id[k];
    const intrants: IntrantDetail[] = [];
    for (let n = 0; n < c.ni[k]; n++, i++) {
      inputId += e.ii[i];
      const unite = c.iu[i];
      const x: IntrantDetail = { id: inputId, type: c.it[i], libelle: s[c.in[i]], quantite: c.iq[i], unite: unite == null ? null : s[unite] };
      const dossier = dossiers.get(i);
      if (dossier !== undefined) x.idIntrantDossier = dossier;
      intrants.push(x);
    }
    const recoltes: RecolteDetail[] = [];
    for (let n = 0; n < c.nr[k]; n++, r += HARVEST) {
      recoltes.push({ id: c.r[r] as number, libelle: s[c.r[r + 1] as number], rendement: c.r[r + 2], unite: s[c.r[r + 3] as number] });
    }
    const b = c.b[k];
    rows[k] = {
      id,
      updatedAt: new Date(c.t0 + c.t[k]).toISOString(),
      idParcelle: c.p[k],
      date: s[c.d[k]],
      idOperationCulturale: c.o[k],
      idCultureConcernee: c.c[k],
      debit: c.db[k],
      frequence: c.f[k],
      tauxSurface: c.ts[k],
      nombrePassage: c.np[k],
      realisee: (b & 1) !== 0,
      prevue: (b & 2) !== 0,
      intrants,
      recoltes,
      rdd: (b & 4) !== 0,
    };
  }
  for (let j = 0; j < e.g.length; j += REGISTRE) {
    const row = rows[e.g[j] as number];
    const text = (at: number | null) => (at == null ? undefined : s[at]);
    const [hd, hf, ps, sp, ls, st, ra] = e.g.slice(j + 1, j + REGISTRE);
    if (hd != null) row.heureDebut = text(hd);
    if (hf != null) row.heureFin = text(hf);
    if (ps != null) row.precisionStade = text(ps);
    if (sp != null) row.siretPrestataire = text(sp);
    if (ls != null) row.lotSemences = text(ls);
    if (st != null) row.idStadeCulture = st;
    if (ra != null) row.rentreeAnticipee = ra === 1;
  }
  return rows;
}

/**
 * The screen's choices (the campaign's plots, operations and crops) as its loader sends them (decision 0083): one JSON
 * text kept per campaign version with the rows, so React Router's encoding meets one text instead of a thousand
 * values; the plots (the longest list) in columns.
 */
export type InterventionChoices = Pick<InterventionsData, "parcelles" | "operations" | "cultures"> & { stades?: StadeChoix[] };
export type EncodedChoices = string & { readonly __encodedChoices?: true };
type ChoiceColumns = {
  v: 1;
  /** Plots: ids, names, irrigable (1 or 0), surfaces, management modes. */
  p: { id: number[]; l: string[]; i: Column<number>; s: (number | null)[]; m: Column<number | null> };
  o: InterventionChoices["operations"];
  c: InterventionChoices["cultures"];
  /** The stages of the campaign's crops' scales (issue 28). */
  st?: StadeChoix[];
};

export function encodeChoices({ parcelles, operations, cultures, stades = [] }: InterventionChoices): EncodedChoices {
  const p: ChoiceColumns["p"] = {
    id: parcelles.map((x) => x.id),
    l: parcelles.map((x) => x.libelle),
    i: column(parcelles.map((x) => (x.irrigable ? 1 : 0))),
    s: parcelles.map((x) => x.surface),
    m: column(parcelles.map((x) => x.idModeConduite)),
  };
  return JSON.stringify({ v: 1, p, o: operations, c: cultures, ...(stades.length ? { st: stades } : {}) } satisfies ChoiceColumns) as EncodedChoices;
}

export function decodeChoices(encoded: EncodedChoices): InterventionChoices {
  const e = JSON.parse(encoded) as ChoiceColumns;
  if (e.v !== 1) throw new Error(`interventions choices: unknown format ${String(e.v)}`);
  const n = e.p.id.length;
  const irrigable = expand(e.p.i, n);
  const modes = expand(e.p.m, n);
  const parcelles = e.p.id.map((id, k) => ({ id, libelle: e.p.l[k], irrigable: irrigable[k] === 1, surface: e.p.s[k], idModeConduite: modes[k] }));
  return { parcelles, operations: e.o, cultures: e.c, ...(e.st ? { stades: e.st } : {}) };
}
