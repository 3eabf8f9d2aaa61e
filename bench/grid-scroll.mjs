// Benchmark of the interventions grid in the browser (issue 11: "10,000 rows scroll smoothly", goal >= 50 frames/s).
//
//   node bench/grid-scroll.mjs [--interventions 10000] [--seconds 5] [--step 120] [--port 3602] [--profile scroll.cpuprofile]
//
// Prepares a fresh data folder under the system's temporary folder (removed at the end): the seeded demo, then `scripts/demo-charge.ts` with
// `--interventions` (EARL de la Charge 2025); starts the built server, opens the interventions screen in Debian's
// Chromium (headless, as the journeys run it) signed in as `animateur` with every plot of that campaign chosen, waits
// for the grid, then scrolls its rows: each animation frame moves the grid's scroller on by `--step` pixels (default
// 120, a fast flick: 7,200 px/s at 60 Hz), down for `--seconds` then back up. The page records the interval between
// animation frames (requestAnimationFrame) while it scrolls: frames per second, median and p95 interval, frames over
// 33 ms (a visible stutter), and the grid's last visible row as a check that it moved. Markdown rows on stdout.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { chromium } from "@playwright/test";
import { argsOf, demoIds, fmt, percentile, prepareData, root, selectContext, serverEnv, signIn, startServer, stopServer, tempDataDir } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const port = Number(args.port ?? 3602);
const count = Number(args.interventions ?? 10_000);
const seconds = Number(args.seconds ?? 5);
const step = Number(args.step ?? 120);
const origin = `http://127.0.0.1:${port}`;
const dataDir = tempDataDir("grid-scroll");

prepareData({ port, dataDir });
execFileSync(path.join(root, "node_modules/.bin/vite-node"), [path.join(root, "scripts/demo-charge.ts"), "--", "--interventions", String(count)], {
  cwd: root,
  env: serverEnv({ port, dataDir }),
  stdio: ["ignore", "ignore", "inherit"],
});

const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
const ids = demoIds(db, "EARL de la Charge");
const plots = db
  .prepare("select id from parcelle where id_campagne = ? order by id")
  .all(ids.campagne)
  .map((r) => r.id);
const actions = db.prepare("select count(*) as n from action where id_campagne = ?").get(ids.campagne).n;
db.close();

const server = await startServer({ port, dataDir, keepData: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const cookie = await signIn(origin);
  await selectContext(origin, cookie, ids);
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: "fr-FR", timezoneId: "Europe/Paris" });
  await context.addCookies(
    cookie.split("; ").map((c) => {
      const [name, ...value] = c.split("=");
      return { name, value: value.join("="), url: origin };
    }),
  );
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const started = performance.now();
  await page.goto(`${origin}/home/description/au_champs/interventions?${plots.map((id) => `parcelleId=${id}`).join("&")}`);
  const canvas = page.locator("canvas[data-testid=data-grid-canvas]");
  await canvas.waitFor({ state: "visible", timeout: 120_000 });
  const shown = performance.now() - started;
  // `--profile <file>`: the page's CPU profile while it scrolls (Chrome DevTools format).
  const cdp = args.profile ? await context.newCDPSession(page) : null;
  if (cdp) await cdp.send("Profiler.enable").then(() => cdp.send("Profiler.start"));
  // The grid's scroller: the element that scrolls the canvas's rows (the one with the most to scroll).
  const result = await page.evaluate(
    async ({ seconds, step }) => {
      const scroller = [...document.querySelectorAll("*")]
        .filter((e) => e.scrollHeight > e.clientHeight + 1000)
        .sort((a, b) => b.scrollHeight - a.scrollHeight)[0];
      if (!scroller) throw new Error("no scrolling element with the rows");
      const intervals = [];
      const run = (direction) =>
        new Promise((resolve) => {
          let last = performance.now();
          const end = last + seconds * 1000;
          const frame = (now) => {
            intervals.push(now - last);
            last = now;
            scroller.scrollTop += direction * step;
            if (now < end) requestAnimationFrame(frame);
            else resolve();
          };
          requestAnimationFrame((now) => {
            last = now;
            requestAnimationFrame(frame);
          });
        });
      const height = scroller.scrollHeight;
      await run(1);
      const bottom = scroller.scrollTop;
      await run(-1);
      return { intervals, height, bottom, top: scroller.scrollTop };
    },
    { seconds, step },
  );
  if (cdp) fs.writeFileSync(args.profile, JSON.stringify((await cdp.send("Profiler.stop")).profile));
  const sorted = [...result.intervals].sort((a, b) => a - b);
  const total = result.intervals.reduce((a, b) => a + b, 0);
  const fps = (result.intervals.length / total) * 1000;
  const long = result.intervals.filter((i) => i > 33.4).length;
  if (errors.length) throw new Error(`browser errors: ${errors.join("; ")}`);
  console.log(
    `Load-test farm: ${actions} interventions on ${plots.length} plots, all shown; rows height ${result.height} px, scrolled to ${result.bottom} px and back to ${result.top}; cores: ${os.availableParallelism()}; load average at the end: ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log("| measure | rows | frames | frames/s | median frame ms | p95 frame ms | frames over 33 ms | screen shown ms |");
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| grid scroll in Chromium, ${step} px per frame, ${seconds} s down and ${seconds} s up | ${actions} | ${result.intervals.length} | ${fmt(fps)} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${long} | ${fmt(shown)} |`,
  );
} finally {
  await browser.close();
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
