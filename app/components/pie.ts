/**
 * Geometry of a pie chart drawn as SVG paths (the crop-area dialog, spec 1 §2). Angles start at
 * 12 o'clock and turn clockwise; the SVG y axis points down.
 */
export type PieSlice = {
  index: number;
  value: number;
  /** Share of the total, 0 to 1. */
  fraction: number;
  startAngle: number;
  endAngle: number;
  /** The SVG path "d" of the slice. */
  path: string;
};

// "+ 0" turns -0 into 0 (it would print as "0" but compares unequal in tests and reads oddly).
const round = (n: number) => Math.round(n * 1000) / 1000 + 0;

/** The point of the circle at `angle` radians from 12 o'clock, clockwise. */
export function pointAt(cx: number, cy: number, r: number, angle: number): [number, number] {
  return [round(cx + r * Math.sin(angle)), round(cy - r * Math.cos(angle))];
}

/**
 * One slice per value, in order; values that are not positive get no slice. A single slice is a full
 * disc (two half arcs: one arc cannot start and end at the same point).
 */
export function pieSlices(values: readonly number[], cx: number, cy: number, r: number): PieSlice[] {
  const total = values.reduce((sum, v) => (v > 0 ? sum + v : sum), 0);
  if (!(total > 0)) return [];
  const slices: PieSlice[] = [];
  let angle = 0;
  values.forEach((value, index) => {
    if (!(value > 0)) return;
    const fraction = value / total;
    const startAngle = angle;
    const endAngle = angle + fraction * 2 * Math.PI;
    angle = endAngle;
    let path: string;
    if (fraction >= 1 - 1e-9) {
      const [tx, ty] = pointAt(cx, cy, r, 0);
      const [bx, by] = pointAt(cx, cy, r, Math.PI);
      path = `M ${tx} ${ty} A ${r} ${r} 0 1 1 ${bx} ${by} A ${r} ${r} 0 1 1 ${tx} ${ty} Z`;
    } else {
      const [sx, sy] = pointAt(cx, cy, r, startAngle);
      const [ex, ey] = pointAt(cx, cy, r, endAngle);
      const large = endAngle - startAngle > Math.PI ? 1 : 0;
      path = `M ${cx} ${cy} L ${sx} ${sy} A ${r} ${r} 0 ${large} 1 ${ex} ${ey} Z`;
    }
    slices.push({ index, value, fraction, startAngle, endAngle, path });
  });
  return slices;
}

/** Percentages with one decimal that add up to exactly 100 (largest remainder), for the legend. */
export function percentages(values: readonly number[], decimals = 1): number[] {
  const total = values.reduce((sum, v) => (v > 0 ? sum + v : sum), 0);
  if (!(total > 0)) return values.map(() => 0);
  const scale = 10 ** decimals;
  const exact = values.map((v) => (v > 0 ? (v / total) * 100 * scale : 0));
  const floors = exact.map(Math.floor);
  let missing = 100 * scale - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - floors[i], i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (missing <= 0) break;
    if (values[i] > 0) {
      floors[i] += 1;
      missing -= 1;
    }
  }
  return floors.map((f) => f / scale);
}

/** Distinct fill colours (colour-blind friendly Okabe–Ito first, then darker tones), repeated when there are more slices. */
export const PIE_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999", "#8C6D31", "#1B5E20", "#6A3D9A", "#B15928"];

export const pieColour = (index: number) => PIE_COLOURS[index % PIE_COLOURS.length];
