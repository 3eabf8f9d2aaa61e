import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";
import { cycles, importGraph } from "./import-graph";

/**
 * The layer table of docs/architecture.md holds by itself (decision 0088): ESLint's import rules refuse a
 * file placed where it may not import what it imports, and no module of app/ or server/ is part of a cycle.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let eslint: ESLint;

/** ESLint's first lint loads the config, the parser and the resolver: seconds on a loaded machine. */
const SLOW = { timeout: 60_000 };

beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  await eslint.lintText("export {};\n", { filePath: path.join(root, "server/x.ts") });
}, SLOW.timeout);

/** The errors ESLint reports for a file of this content at this path of the repository (the file need not exist). */
async function errorsOf(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.filter((m) => m.severity === 2).map((m) => ({ rule: m.ruleId, message: m.message }));
}

describe("the layers are import rules", SLOW, () => {
  test("server never imports app/components or app/routes", async () => {
    const errors = await errorsOf(
      "server/x.ts",
      'import { formatNumber } from "~/components/format";\nimport type { loader } from "~/routes/assolement";\nexport const x = (l: typeof loader) => [formatNumber(1, "fr"), l];\n',
    );
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e.rule).toBe("import-x/no-restricted-paths");
      expect(e.message).toContain("server never imports app/components or app/routes");
    }
  });

  test("app/domain imports neither knex nor the components; zod and the domain are allowed", async () => {
    const errors = await errorsOf(
      "app/domain/x.ts",
      'import knex from "knex";\nimport { formatNumber } from "~/components/format";\nexport const x = [knex, formatNumber];\n',
    );
    expect(errors).toContainEqual({ rule: "no-restricted-imports", message: expect.stringContaining("app/domain imports only zod") });
    expect(errors).toContainEqual({ rule: "import-x/no-restricted-paths", message: expect.stringContaining("app/domain imports only zod and app/domain") });
    expect(
      await errorsOf("app/domain/x.ts", 'import { z } from "zod";\nimport { toNumber } from "~/domain/validation";\nexport const x = [z, toNumber];\n'),
    ).toEqual([]);
  });

  test("a component never imports a route, nor a value of the server (a type is allowed)", async () => {
    const errors = await errorsOf(
      "app/components/x.tsx",
      'import type { loader } from "~/routes/assolement";\nimport { getAssolement } from "#server/assolement/service.server";\nexport const x = (l: typeof loader) => [getAssolement, l];\n',
    );
    expect(errors.map((e) => e.rule).sort()).toEqual(["@typescript-eslint/no-restricted-imports", "import-x/no-restricted-paths"]);
    expect(await errorsOf("app/components/x.tsx", 'import type { ContextView } from "#server/contexte/service";\nexport type X = ContextView;\n')).toEqual([]);
  });

  test("a route calls services, never a repo, the database or knex", async () => {
    const errors = await errorsOf(
      "app/routes/x.tsx",
      'import knex from "knex";\nimport { db } from "#server/db";\nimport { findExploitation } from "#server/exploitation/repo";\nexport const x = [knex, db, findExploitation];\n',
    );
    expect(errors.map((e) => e.rule).sort()).toEqual(["import-x/no-restricted-paths", "import-x/no-restricted-paths", "no-restricted-imports"]);
  });

  test("[issue23-sql-in-repo] a service that calls the knex builder is refused; opening a transaction and calling a repo are allowed", async () => {
    const violation = [
      'import type { Db } from "../db/knex";',
      'import type { Scope } from "../access/scope";',
      "export async function f(db: Db, scope: Scope) {",
      '  await db("parcelle").where({ id: 1 }).first();',
      '  await scope.db("campagne").first();',
      '  await db.raw("select 1");',
      '  await db.batchInsert("cible", [], 200);',
      '  return db.transaction(async (trx) => trx("action").count({ n: "*" }));',
      "}",
      "",
    ].join("\n");
    for (const file of ["server/x/service.ts", "server/session-export/donnees-brutes.ts"]) {
      const errors = await errorsOf(file, violation);
      expect(errors.map((e) => e.rule)).toEqual(Array(5).fill("no-restricted-syntax"));
      for (const e of errors) expect(e.message).toContain("SQL lives in the feature's repo.ts");
    }
    const allowed = [
      'import { db } from "../db";',
      'import { findParcelle, updateParcelle } from "./repo";',
      "export async function f() {",
      "  return db().transaction(async (trx) => {",
      "    await trx.transaction((sp) => updateParcelle(sp, 1));",
      "    return findParcelle(trx, 1) ?? findParcelle(db(), 1);",
      "  });",
      "}",
      "",
    ].join("\n");
    // server/db's connection getter `db()` is no query; `db()(…)` is.
    const getter = 'import { db } from "../db";\nexport const f = () => db()("session").where({ id: "x" }).delete();\n';
    expect((await errorsOf("server/auth/session.ts", getter)).map((e) => e.rule)).toEqual(["no-restricted-syntax"]);
    expect(await errorsOf("server/x/service.ts", allowed)).toEqual([]);
    // The repo itself holds the SQL.
    expect(await errorsOf("server/x/repo.ts", violation)).toEqual([]);
  });

  test("an import cycle is refused", async () => {
    const results = await new ESLint({ cwd: root, ignore: false }).lintFiles(["tests/lint/fixtures/cycle-a.ts"]);
    expect(results[0].messages.map((m) => m.ruleId)).toContain("import-x/no-cycle");
  });
});

describe("no import cycle", SLOW, () => {
  test("no module of app/ or server/ is part of a cycle, type imports included", () => {
    expect(cycles(importGraph(root, ["app", "server"]))).toEqual([]);
  });

  test("the graph sees a cycle where there is one", () => {
    expect(cycles(importGraph(root, ["tests/lint/fixtures"]))).toEqual([["tests/lint/fixtures/cycle-a.ts", "tests/lint/fixtures/cycle-b.ts"]]);
  });
});
