// ESLint flat config: typescript-eslint's recommended rules, the rules of hooks, and the layer table of
// docs/architecture.md as import rules (decision 0088). `npm run lint` runs it; scripts/test.sh too.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** What app/domain may import besides itself: zod, and pure libraries without I/O (types of GeoJSON, turf's area). */
const DOMAIN_PACKAGES = ["zod", "geojson", "@turf/turf"];

/** The layer table of docs/architecture.md: each zone says which folder (target) may not import which (from). */
export const layerZones = [
  {
    target: "./app/domain",
    from: ["./app/components", "./app/routes", "./app/middleware", "./app/locales", "./server", "./seeds", "./migrations"],
    message: "app/domain imports only zod and app/domain (docs/architecture.md, Layers).",
  },
  {
    target: "./server",
    from: ["./app/components", "./app/routes"],
    message: "server never imports app/components or app/routes: what crosses the wire goes in app/domain/contracts/.",
  },
  {
    target: "./app/components",
    from: ["./app/routes"],
    message: "app/components never imports app/routes: a route is made of components, not the reverse.",
  },
  {
    target: ["./app/components", "./app/domain"],
    from: ["./server/db"],
    message: "components and the domain run in the browser: no database.",
  },
  {
    target: "./app/routes",
    from: ["./server/*/repo.ts", "./server/db/**"],
    message: "a route calls services (service.server.ts) through the adapter, never a repo or the database.",
  },
  {
    target: "./server/db",
    from: ["./server/demo"],
    message: "server/db holds the connection and the schema; the demo seed is loaded by server/prepare-database.ts.",
  },
];

/**
 * SQL lives in the feature's repo.ts (decision 0135): in a service, calling the knex builder is an error. A knex
 * builder reaches a service as its `db` (or a transaction's `trx`), so the rule is on the calls, not on an import:
 * `db(…)`, `trx(…)`, `scope.db(…)`, `db.raw(…)` / `db.batchInsert(…)` / any other method of the connection, and
 * `.raw(…)` on anything. Opening a transaction (`db.transaction(…)`, a savepoint `trx.transaction(…)`) is the
 * service's to decide and stays allowed, like passing `db` / `trx` to a repo function.
 */
const KNEX = "^(db|trx|tx|knex|sp)$";
const SQL_IN_REPO = "SQL lives in the feature's repo.ts (decision 0135): call a repo function; a service only opens the transaction.";
export const noKnexInServices = [
  // `db()` alone is the connection getter of server/db (server/auth/session.ts); `db()(…)` is a query.
  { selector: `CallExpression[callee.type='Identifier'][callee.name=/${KNEX}/][arguments.length>0]`, message: SQL_IN_REPO },
  { selector: `CallExpression[callee.type='CallExpression'][callee.callee.name=/${KNEX}/]`, message: SQL_IN_REPO },
  { selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=/${KNEX}/]`, message: SQL_IN_REPO },
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.object.type='Identifier'][callee.object.name=/${KNEX}/][callee.property.name!='transaction']`,
    message: SQL_IN_REPO,
  },
  { selector: `CallExpression[callee.property.name='raw']:not([callee.object.name=/${KNEX}/])`, message: SQL_IN_REPO },
];

/**
 * The server files where the rule holds: every service, and the feature modules beside them that were moved to
 * their repo (decision 0135). Those that still hold queries are listed in KNEX_LEFT, each to move in its turn.
 */
export const SQL_FREE_FILES = [
  "server/**/service.ts",
  "server/session-export/donnees-brutes.ts",
  "server/referentiel-intrants/import-service.ts",
  "server/intrant-dossier/non-reference.ts",
  "server/calcul/instantane.ts",
  "server/auth/session.ts",
];
export const KNEX_LEFT = [
  // The eDaplos export's session rows, its log and its counts (15 calls): to move to server/interop/edaplos/repo.ts.
  "server/interop/edaplos/service.ts",
];

/** A domain module's tests may read the locales, the seeds and the components that show what they test; never the server. */
const domainTestZones = [
  { target: "./app/domain", from: ["./server"], message: "app/domain, even its tests, never imports the server." },
  ...layerZones.slice(1),
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "builds/**",
      ".react-router/**",
      "node_modules/**",
      "public/**",
      "data/**",
      "bench/.data*/**",
      "tests/.artifacts/**",
      "test-results/**",
      "playwright-report/**",
      "**/*.min.js",
      // Deliberate violations, linted by tests/lint/layers.test.ts alone.
      "tests/lint/fixtures/**",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true, project: "./tsconfig.json" })],
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs", ".cjs"],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: layerZones }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // A destructuring whose parts are not all constant stays one `let`.
      "prefer-const": ["error", { destructuring: "all" }],
    },
  },
  {
    // The rules of hooks where React runs: app/ (the server's and the tests' use* functions are no hooks).
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // knex only on the server: a screen, a component or the domain never builds a query.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "knex", message: "knex is the server's (its repos and services): app/ never imports it." }] }],
    },
  },
  {
    // The browser's code takes from the server nothing but types (erased from the bundle); what crosses the wire
    // in both directions is better in app/domain/contracts/ (decision 0088).
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(#server\\/|(\\.\\.\\/)+server\\/)",
              allowTypeImports: true,
              message: "a component imports from the server only types (import type); values go through the loader.",
            },
          ],
        },
      ],
    },
  },
  {
    // No SQL outside the repos (decision 0135): the services and the modules beside them call repo functions.
    files: SQL_FREE_FILES,
    ignores: KNEX_LEFT,
    rules: { "no-restricted-syntax": ["error", ...noKnexInServices] },
  },
  {
    files: ["app/domain/**/*.test.{ts,tsx}"],
    rules: { "import-x/no-restricted-paths": ["error", { zones: domainTestZones }] },
  },
  {
    files: ["app/domain/**/*.{ts,tsx}"],
    ignores: ["app/domain/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(?!(${DOMAIN_PACKAGES.map((p) => p.replace("/", "\\/")).join("|")})(\\/|$)|~\\/domain\\/|\\.\\.?\\/)`,
              message: "app/domain imports only zod, pure libraries (geojson, @turf/turf) and app/domain.",
            },
          ],
        },
      ],
    },
  },
);
