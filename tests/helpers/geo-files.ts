import { crc32, deflateRawSync } from "node:zlib";

/**
 * Small geographic files built in the tests (plot import, docs/decisions/0015-import-parcelles.md):
 * GeoJSON of fields near Chartres, a KML, and zipped shapefiles written byte by byte from the
 * ESRI and dBase layouts, so that no binary fixture hides what a test reads.
 */

type Ring = [number, number][];

/** A rectangle of `w` × `h` degrees from (lon, lat), counter-clockwise and closed. */
export function rectangle(lon: number, lat: number, w: number, h: number): Ring {
  return [
    [lon, lat],
    [lon + w, lat],
    [lon + w, lat + h],
    [lon, lat + h],
    [lon, lat],
  ];
}

/** Three fields near Chartres (8.2, 4.1 and 1.64 ha computed), with Telepac-like and plain name properties. */
export function threeFields() {
  return {
    type: "FeatureCollection",
    features: [
      { type: "Feature", properties: { NUM_ILOT: "12", NUM_PARCEL: "1" }, geometry: { type: "Polygon", coordinates: [rectangle(1.48, 48.44, 0.004, 0.0025)] } },
      {
        type: "Feature",
        properties: { nom: "Les Hauts Vents", NUM_ILOT: "12" },
        geometry: { type: "Polygon", coordinates: [rectangle(1.485, 48.44, 0.002, 0.0025)] },
      },
      { type: "Feature", properties: { name: "La Mare" }, geometry: { type: "Polygon", coordinates: [rectangle(1.49, 48.44, 0.001, 0.002)] } },
    ],
  };
}

export const bytesOf = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

export function kmlOf(placemarks: { name: string; coordinates: Ring }[]): string {
  const body = placemarks
    .map(
      (p) =>
        `<Placemark><name>${p.name}</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${p.coordinates.map(([x, y]) => `${x},${y},0`).join(" ")}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`;
}

// ---- Shapefile (.shp polygons or points, .dbf text fields)

const signedArea = (ring: Ring) => ring.slice(1).reduce((s, [x, y], i) => s + (x - ring[i][0]) * (y + ring[i][1]), 0);

/** A .shp of polygons (shape type 5, outer rings clockwise as the format wants) or points (type 1). */
export function shp(shapes: ({ polygon: Ring[] } | { point: [number, number] })[]): Uint8Array {
  const records = shapes.map((s) => {
    if ("point" in s) {
      const b = Buffer.alloc(20);
      b.writeInt32LE(1, 0);
      b.writeDoubleLE(s.point[0], 4);
      b.writeDoubleLE(s.point[1], 12);
      return { buf: b, box: [s.point[0], s.point[1], s.point[0], s.point[1]] };
    }
    const rings = s.polygon.map((r, i) => (signedArea(r) > 0 === (i === 0) ? r : [...r].reverse()));
    const points = rings.flat();
    const box = [
      Math.min(...points.map((p) => p[0])),
      Math.min(...points.map((p) => p[1])),
      Math.max(...points.map((p) => p[0])),
      Math.max(...points.map((p) => p[1])),
    ];
    const b = Buffer.alloc(44 + 4 * rings.length + 16 * points.length);
    b.writeInt32LE(5, 0);
    box.forEach((v, i) => b.writeDoubleLE(v, 4 + 8 * i));
    b.writeInt32LE(rings.length, 36);
    b.writeInt32LE(points.length, 40);
    let start = 0;
    rings.forEach((r, i) => {
      b.writeInt32LE(start, 44 + 4 * i);
      start += r.length;
    });
    points.forEach(([x, y], i) => {
      b.writeDoubleLE(x, 44 + 4 * rings.length + 16 * i);
      b.writeDoubleLE(y, 44 + 4 * rings.length + 16 * i + 8);
    });
    return { buf: b, box };
  });
  const header = Buffer.alloc(100);
  const length = 100 + records.reduce((n, r) => n + 8 + r.buf.length, 0);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE("point" in shapes[0] ? 1 : 5, 32);
  const all = records.map((r) => r.box);
  [Math.min(...all.map((b) => b[0])), Math.min(...all.map((b) => b[1])), Math.max(...all.map((b) => b[2])), Math.max(...all.map((b) => b[3]))].forEach((v, i) =>
    header.writeDoubleLE(v, 36 + 8 * i),
  );
  const parts = [header];
  records.forEach((r, i) => {
    const h = Buffer.alloc(8);
    h.writeInt32BE(i + 1, 0);
    h.writeInt32BE(r.buf.length / 2, 4);
    parts.push(h, r.buf);
  });
  return new Uint8Array(Buffer.concat(parts));
}

/** A .dbf of text fields (type C, 40 characters), encoded in `encoding` (latin1 or utf8). */
export function dbf(rows: Record<string, string>[], encoding: "latin1" | "utf8" = "latin1"): Uint8Array {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = 40;
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + width * fields.length;
  const header = Buffer.alloc(headerLength);
  header.writeUInt8(3, 0);
  header.writeUInt8(125, 1);
  header.writeUInt8(1, 2);
  header.writeUInt8(1, 3);
  header.writeUInt32LE(rows.length, 4);
  header.writeUInt16LE(headerLength, 8);
  header.writeUInt16LE(recordLength, 10);
  fields.forEach((f, i) => {
    header.write(f.slice(0, 10), 32 + 32 * i, "latin1");
    header.write("C", 32 + 32 * i + 11, "latin1");
    header.writeUInt8(width, 32 + 32 * i + 16);
  });
  header.writeUInt8(0x0d, headerLength - 1);
  const records = rows.map((r) => {
    const b = Buffer.alloc(recordLength, 0x20);
    fields.forEach((f, i) => b.write(String(r[f] ?? "").slice(0, width), 1 + width * i, encoding));
    return b;
  });
  return new Uint8Array(Buffer.concat([header, ...records, Buffer.from([0x1a])]));
}

/** The .prj Telepac writes for Lambert-93 (RGF93, EPSG:2154). */
export const LAMBERT93_PRJ =
  'PROJCS["RGF_1993_Lambert_93",GEOGCS["GCS_RGF_1993",DATUM["D_RGF_1993",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],' +
  'UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",700000.0],PARAMETER["False_Northing",6600000.0],' +
  'PARAMETER["Central_Meridian",3.0],PARAMETER["Standard_Parallel_1",44.0],PARAMETER["Standard_Parallel_2",49.0],PARAMETER["Latitude_Of_Origin",46.5],UNIT["Meter",1.0]]';

// ---- Zip (deflated entries, or stored with { store: true })

export function zip(files: Record<string, Uint8Array | string>, opts: { store?: boolean } = {}): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
    const packed = opts.store ? data : deflateRawSync(data);
    const method = opts.store ? 0 : 8;
    const crc = crc32(data);
    const nameBuf = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}
