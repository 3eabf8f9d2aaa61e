import { z } from "zod";

/**
 * Shared validation rules (spec §5). Every message is an i18n key, translated by the UI.
 * The helpers accept HTML form input (strings, "" or missing for an empty field) as well as
 * typed values, and work with conform's `parseWithZod` (which turns "" into undefined).
 */

export const VALIDATION_KEYS = [
  "warning.required",
  "warning.numeric",
  "warning.integer",
  "warning.percentage",
  "warning.positive",
  "warning.not-zero",
  "warning.invalid",
  "warning.date",
  "warning.min",
  "warning.max",
  "warning.minmax",
  "warning.min-characters",
  "warning.max-characters",
  "warning.match",
  "warning.invalid-form",
  "warning.too-many",
  "warning.control-character",
  "warning.date-window",
  "warning.date-campaign",
] as const;
export type ValidationKey = (typeof VALIDATION_KEYS)[number];

export const INVALID_FORM = "warning.invalid-form" satisfies ValidationKey;
export const POSTAL_CODE_LENGTH = 5;
export const PERCENTAGE_MIN = 0;
export const PERCENTAGE_MAX = 100;
export const PASSWORD_MIN_LENGTH = 8;

/** Schema-level error: a missing value is "required", anything else gets `key`. */
const requiredOr =
  (key: ValidationKey) =>
  (iss: { input?: unknown }): ValidationKey =>
    iss.input === undefined || iss.input === null ? "warning.required" : key;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** Trimmed text; blank becomes undefined; a number becomes its string (so 0 counts as filled). */
function cleanText(value: unknown): unknown {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Untrimmed text (passwords): only "" becomes undefined. */
const cleanRaw = (value: unknown): unknown => (value === "" || value === null ? undefined : value);

// Plain decimal with "." or the French ","; anything else (hex, exponent, "12abc") is not numeric.
const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;

/**
 * What a spreadsheet writes around a number (decision 0101): a currency sign before or after it ("12,50 €",
 * "€12.50", "12,50 EUR"), a percent sign after it ("15 %": 15, the value as written, which is how every
 * percentage of Sillon is kept, 0 to 100). Spaces of any width are left for the caller.
 */
export function stripNumberSigns(text: string): string {
  return text
    .trim()
    .replace(/^([+-]?)[\s\u00a0\u202f]*(?:€|EUR)[\s\u00a0\u202f]*/i, "$1")
    .replace(/[\s\u00a0\u202f]*(?:€|EUR|%)$/i, "")
    .trim();
}

/**
 * "12,5", " 1 000 ", "1 234,50 €", "15 %" → number; blank → undefined; an unparseable string stays as is
 * (→ warning.numeric). The French decimal comma always: "1,250" is 1.25. The one number reader of the forms'
 * schemas and of the grid's paste (app/components/grid/paste.ts).
 */
export function toNumber(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  if (typeof value !== "string") return value;
  // French thousands separators: space, no-break space, narrow no-break space.
  const compact = stripNumberSigns(value).replace(/[\s\u00a0\u202f]/g, "");
  return DECIMAL.test(compact) ? Number(compact.replace(",", ".")) : value;
}

// A row id as a form sends it: decimal digits only (no "0x1A", "1e3", " 5" or "5.0").
const DIGITS = /^\d{1,10}$/;

/**
 * A row id: a positive integer an integer column stores, given as a number or a string of decimal digits.
 * Anything else (hex, exponent, blank, 2^31) is warning.invalid.
 */
export const rowId = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? (DIGITS.test(v) ? Number(v) : Number.NaN) : v),
    z.number({ error: "warning.invalid" }).int("warning.invalid").positive("warning.invalid").max(INT_MAX, "warning.invalid"),
  );

/**
 * Upper bound of the ids one request may name (a selection, a list of targets): a list screen shows at most a few
 * thousand rows; more is refused (400 warning.too-many) before any query is built.
 */
export const MAX_IDS = 5000;

/**
 * toNumber for the schemas: a string that is not a plain decimal becomes NaN (→ warning.numeric), so that no later
 * coercion reads it as a number (conform's parseWithZod would give Number("0x1A") = 26, Number("1e3") = 1000).
 */
export function numericInput(value: unknown): unknown {
  const n = toNumber(value);
  return typeof n === "string" ? Number.NaN : n;
}

/** Makes any of these schemas optional: a blank or missing value gives undefined. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (isBlank(value) ? undefined : value), schema.optional());
}

// ---------------------------------------------------------------------------------------------
// Text

export const minLength = (min: number) => z.minLength(min, "warning.min-characters");
export const maxLength = (max: number) => z.maxLength(max, "warning.max-characters");

/**
 * Characters no text keeps (issue 23, decision 0091): the C0 controls (NUL first: PostgreSQL refuses it in a text
 * column, SQLite would store it), DEL and the C1 controls. A multi-line text (a textarea) keeps tab, line feed and
 * carriage return; a one-line text refuses them too (a browser's <input> never sends them).
 */
// eslint-disable-next-line no-control-regex -- these expressions exist to find control characters
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Whether a text holds a character no field keeps (see CONTROL_ONE_LINE). */
export const hasControlCharacter = (value: string, multiline = false) => (multiline ? CONTROL_MULTI_LINE : CONTROL_ONE_LINE).test(value);

/** The check of every text: no control character (warning.control-character). */
export const noControlCharacter = (multiline = false) => z.refine<string>((s) => !hasControlCharacter(s, multiline), "warning.control-character");

export type TextOptions = { min?: number; max?: number; /** A textarea: tab and line breaks allowed. */ multiline?: boolean };

function textSchema({ min, max, multiline }: TextOptions = {}) {
  let schema = z.string({ error: requiredOr("warning.invalid") }).check(noControlCharacter(multiline));
  if (min !== undefined) schema = schema.check(minLength(min));
  if (max !== undefined) schema = schema.check(maxLength(max));
  return schema;
}

/** Non-empty trimmed text; optional character bounds (warning.min-characters / warning.max-characters). */
export const requiredText = (options?: TextOptions) => z.preprocess(cleanText, textSchema(options));

export const optionalText = (options?: TextOptions) => z.preprocess(cleanText, textSchema(options).optional());

// ---------------------------------------------------------------------------------------------
// Numbers

/** The largest integer an integer column stores on both databases (PostgreSQL `integer`: 32 bits). */
export const INT_MAX = 2_147_483_647;

/** The largest value of a `decimal(precision, scale)` column (PostgreSQL refuses more; SQLite would store it). */
export const decimalMax = (precision: number, scale: number) => Number((10 ** (precision - scale) - 10 ** -scale).toFixed(scale));

/**
 * The bound of a decimal field that names none: decimal(10, 2), the narrowest column of the amounts and charges.
 * A field stored in a narrower column names its own (`max: decimalMax(8, 3)`).
 */
export const NUMBER_MAX = decimalMax(10, 2);

export type NumberOptions = {
  min?: number;
  max?: number;
  integer?: boolean;
  /** Greater than 0 (warning.positive). */
  positive?: boolean;
  /** Different from 0 (warning.not-zero). */
  notZero?: boolean;
};

/**
 * Every number is bounded to what both databases store (issue 10, defect 7): without its own bounds, an integer
 * stays within ±INT_MAX and a decimal within ±NUMBER_MAX, so PostgreSQL never refuses what SQLite would store.
 */
function numberSchema({ min, max, integer, positive, notZero }: NumberOptions = {}) {
  const both = min !== undefined && max !== undefined;
  const bound = integer ? INT_MAX : NUMBER_MAX;
  let schema = z.number({ error: requiredOr("warning.numeric") });
  if (integer) schema = schema.int("warning.integer");
  if (min !== undefined) schema = schema.gte(min, both ? "warning.minmax" : "warning.min");
  else schema = schema.gte(-bound, "warning.min");
  if (max !== undefined) schema = schema.lte(max, both ? "warning.minmax" : "warning.max");
  else schema = schema.lte(bound, "warning.max");
  if (positive) schema = schema.gt(0, "warning.positive");
  if (notZero) schema = schema.refine((n) => n !== 0, "warning.not-zero");
  return schema;
}

/**
 * The bounds a field's number schema holds (those given to requiredNumber / optionalNumber, or the columns' own),
 * for a message that names them ("Valeur hors des bornes (0 – 100)"); undefined for a field that is no number.
 */
export function numberBounds(schema: z.ZodType | undefined): { min?: number; max?: number } | undefined {
  let s: unknown = schema;
  for (let depth = 0; s && depth < 8; depth++) {
    const def = (s as { _zod?: { def?: { type?: string; out?: unknown; innerType?: unknown } } })._zod?.def;
    if (!def) return undefined;
    if (def.type === "number") {
      const n = s as { minValue: number | null; maxValue: number | null };
      return { ...(Number.isFinite(n.minValue) ? { min: n.minValue! } : {}), ...(Number.isFinite(n.maxValue) ? { max: n.maxValue! } : {}) };
    }
    s = def.out ?? def.innerType;
  }
  return undefined;
}

/** A number (0 accepted), from a number or a form string such as "12,5". */
export const requiredNumber = (options?: NumberOptions) => z.preprocess(numericInput, numberSchema(options));

export const optionalNumber = (options?: NumberOptions) => z.preprocess(numericInput, numberSchema(options).optional());

export const positive = (options?: Omit<NumberOptions, "positive">) => requiredNumber({ ...options, positive: true });

export const notZero = (options?: Omit<NumberOptions, "notZero">) => requiredNumber({ ...options, notZero: true });

/** Integer from 0 to 100; every failure other than a missing value is warning.percentage. */
export const percentage = () =>
  z.preprocess(
    numericInput,
    z
      .number({ error: requiredOr("warning.percentage") })
      .refine((n) => Number.isInteger(n) && n >= PERCENTAGE_MIN && n <= PERCENTAGE_MAX, "warning.percentage"),
  );

// ---------------------------------------------------------------------------------------------
// Formats

export const postalCode = () =>
  z.preprocess(
    cleanText,
    z
      .string({ error: requiredOr("warning.invalid") })
      .length(POSTAL_CODE_LENGTH, "warning.invalid")
      .check(noControlCharacter()),
  );

export const email = () => z.preprocess(cleanText, z.email({ error: requiredOr("warning.invalid") }));

// +33, 0033 or 0, then 9 digits (the first not 0); spaces, dots and dashes may separate groups.
const FRENCH_PHONE = /^(?:\+33|0033|0)[1-9]\d{8}$/;

export const isFrenchPhone = (value: string) => FRENCH_PHONE.test(value.replace(/[\s.-]/g, ""));

/** The value is kept as typed. */
export const frenchPhone = () => z.preprocess(cleanText, z.string({ error: requiredOr("warning.invalid") }).refine(isFrenchPhone, "warning.invalid"));

const LA_POSTE_SIREN = "356000000";

/** 14 digits passing the Luhn check; La Poste establishments instead have a digit sum multiple of 5. */
export function isSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false;
  const digits = [...value].map(Number);
  if (value.startsWith(LA_POSTE_SIREN) && digits.reduce((a, b) => a + b, 0) % 5 === 0) return true;
  // Luhn: with 14 digits, the digits at even indexes (from the left) are doubled.
  const sum = digits.reduce((acc, d, i) => {
    const v = i % 2 === 0 ? d * 2 : d;
    return acc + (v > 9 ? v - 9 : v);
  }, 0);
  return sum % 10 === 0;
}

/** Output: the 14 digits, without the spaces the user may have typed. */
export const siret = () =>
  z.preprocess(
    cleanText,
    z
      .string({ error: requiredOr("warning.invalid") })
      .transform((s) => s.replace(/\s/g, ""))
      .refine(isSiret, "warning.invalid"),
  );

/**
 * "yyyy-mm-dd" or "dd/mm/yyyy" (day and month may have one digit; a two-digit year is of the 2000s: "15/3/25" is
 * 15 March 2025, as a spreadsheet's short date) → "yyyy-mm-dd"; null when not a real date.
 */
export function toIsoDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) ?? /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(value);
  if (!match) return null;
  const [y, m, d] = value.includes("/") ? [match[3].length === 2 ? `20${match[3]}` : match[3], match[2], match[1]] : [match[1], match[2], match[3]];
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31/02 over to March: a real date round-trips.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
}

/**
 * The dates any field accepts (decision 0091): from 1 January 1900 to 31 December 2100. An agricultural date
 * outside is a typing error (9999-12-31, 0202-05-01), and both databases and the exports read every date inside.
 */
export const DATE_MIN = "1900-01-01";
export const DATE_MAX = "2100-12-31";

/**
 * The dates of a campaign's interventions and observations (decision 0091): harvest year N runs from 1 January N−2
 * (a temporary meadow or a catch crop sown two autumns before) to 31 December N+1 (the work after harvest).
 */
export function campaignDateWindow(anneeRecolte: number): { from: string; to: string } {
  return { from: `${anneeRecolte - 2}-01-01`, to: `${anneeRecolte + 1}-12-31` };
}

/** Whether an ISO date lies in the campaign's window. */
export function withinCampaign(isoDate: string, anneeRecolte: number): boolean {
  const { from, to } = campaignDateWindow(anneeRecolte);
  const day = isoDate.slice(0, 10);
  return day >= from && day <= to;
}

/** Output: the ISO "yyyy-mm-dd" string, between DATE_MIN and DATE_MAX (else warning.date-window). */
export const dateString = () =>
  z.preprocess(
    cleanText,
    z.string({ error: requiredOr("warning.date") }).transform((s, ctx) => {
      const iso = toIsoDate(s);
      if (iso === null) {
        ctx.issues.push({ code: "custom", message: "warning.date", input: s });
        return z.NEVER;
      }
      if (iso < DATE_MIN || iso > DATE_MAX) {
        ctx.issues.push({ code: "custom", message: "warning.date-window", input: s });
        return z.NEVER;
      }
      return iso;
    }),
  );

/** At least 8 characters; not trimmed, spaces are part of a password. */
export const password = () => z.preprocess(cleanRaw, z.string({ error: requiredOr("warning.invalid") }).check(minLength(PASSWORD_MIN_LENGTH)));

// ---------------------------------------------------------------------------------------------
// Arrays and forms

/** At least one item (warning.required); a single form value becomes a one-item array. */
export const requiredArray = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (isBlank(value) ? [] : Array.isArray(value) ? value : [value]),
    z.array(item).min(1, "warning.required").max(MAX_IDS, "warning.too-many"),
  );

/**
 * `confirmField` must equal `field` (warning.match on the confirmation), and is required
 * once `field` is filled (warning.required), as on the profile's new password.
 */
export function mustMatch<T extends z.ZodObject>(schema: T, field: keyof z.infer<T> & string, confirmField: keyof z.infer<T> & string) {
  return schema.superRefine(
    (data, ctx) => {
      const record = data as Record<string, unknown>;
      const value = record[field];
      const confirm = record[confirmField];
      if (isBlank(value) && isBlank(confirm)) return;
      if (isBlank(confirm)) ctx.addIssue({ code: "custom", message: "warning.required", path: [confirmField] });
      else if (confirm !== value) ctx.addIssue({ code: "custom", message: "warning.match", path: [confirmField] });
    },
    // Also run when another field failed, so the user sees every error at once.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
}

/** Conform-style paths ("a.b[0]"; "" for the form itself) → unique message keys. */
export function issuesToFieldErrors(error: z.ZodError): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const name = issue.path.reduce<string>((acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), "");
    const keys = (result[name] ??= []);
    if (!keys.includes(issue.message)) keys.push(issue.message);
  }
  return result;
}

export type ValidationResult<T> = { success: true; data: T } | { success: false; formError: typeof INVALID_FORM; fieldErrors: Record<string, string[]> };

/** Validates outside conform: a failing form is reported as warning.invalid-form plus its field errors. */
export function validate<T extends z.ZodType>(schema: T, input: unknown): ValidationResult<z.output<T>> {
  const result = schema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  return { success: false, formError: INVALID_FORM, fieldErrors: issuesToFieldErrors(result.error) };
}

/** A checkbox of a form: "on" (checked), "true", "1" or true; absent is false. */
export const flag = () => z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());
