import fs from "node:fs";
import path from "node:path";

/**
 * The import graph of app/ and server/, type imports included (ESLint's import-x/no-cycle follows only the
 * imports that stay in the built code): each module to the modules of this repository it imports, resolved
 * as tsconfig.json does (`~/` is app/, `#server/` is server/, relative paths, the extension left out).
 */
const SOURCE = /\.(ts|tsx|js|mjs)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^"';]*?\sfrom\s)?\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
const ENDINGS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"];

function sources(root: string, dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) sources(root, rel, out);
    } else if (SOURCE.test(entry.name) && !/\.d\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

function resolve(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith("#server/")) base = path.posix.join("server", specifier.slice("#server/".length));
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const ending of ENDINGS) {
    const candidate = base + ending;
    const full = path.join(root, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return null;
}

export function importGraph(root: string, folders: string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of folders.flatMap((f) => sources(root, f))) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(root, file, m[1] ?? m[2]);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one module, or of one importing itself (Tarjan). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}
