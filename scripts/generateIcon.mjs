// Draws the extension's icon, images/icon.png (256×256 RGBA), with nothing but Node: shapes are signed distance
// functions, each pixel is supersampled 4×4, and the PNG is written with zlib. Run: node scripts/generateIcon.mjs
//
// The picture: an ownership graph on Kubernetes blue. A solid owner at the top keeps its dependents on the left;
// on the right, an owner that is gone (a dashed ring) leaves a dependent subtree that the garbage collector is
// sweeping away: dashed orange edges, an empty ring for the one already collected, a cross on the next.

import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE = 256;
const SAMPLES = 4; // per axis
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'images', 'icon.png');

// --- Shapes: signed distance (negative inside) at (x, y).
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const ring = (cx, cy, r, width) => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) - width / 2;
const segment = (x1, y1, x2, y2, width) => (x, y) => {
  const dx = x2 - x1,
    dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)) - width / 2;
};
const roundedSquare = (x0, y0, size, r) => (x, y) => {
  const half = size / 2;
  const qx = Math.abs(x - (x0 + half)) - (half - r),
    qy = Math.abs(y - (y0 + half)) - (half - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
/** A ring with gaps: dashes of `dash` radians every `period` radians, starting at `phase`. */
const dashedRing = (cx, cy, r, width, dash, period, phase) => (x, y) => {
  const base = ring(cx, cy, r, width)(x, y);
  let a = Math.atan2(y - cy, x - cx) - phase;
  a = ((a % period) + period) % period;
  const off = a < dash ? 0 : Math.min(a - dash, period - a) * r; // distance along the ring to the nearest dash
  return Math.max(base, off);
};
/** Dashes along a segment, each `dash` long with `gap` between them. */
const dashedSegment = (x1, y1, x2, y2, width, dash, gap) => {
  const length = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / length,
    uy = (y2 - y1) / length;
  const parts = [];
  for (let s = 0; s < length; s += dash + gap) {
    const e = Math.min(length, s + dash);
    parts.push(segment(x1 + ux * s, y1 + uy * s, x1 + ux * e, y1 + uy * e, width));
  }
  return (x, y) => Math.min(...parts.map((p) => p(x, y)));
};
const union =
  (...shapes) =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));

// --- Colours (r, g, b, a), and the background's vertical gradient.
const WHITE = [255, 255, 255, 1];
const EDGE = [214, 228, 255, 1];
const ORANGE = [255, 168, 64, 1];
const faded = (c, a) => [c[0], c[1], c[2], a];
const background = (y) => {
  const t = y / SIZE;
  return [Math.round(58 - 28 * t), Math.round(120 - 58 * t), Math.round(236 - 86 * t), 1];
};

// --- The picture, painted in order.
const root = [128, 62],
  left = [70, 132],
  gone = [186, 132];
const leftKids = [
  [40, 202],
  [100, 202],
];
const goneKids = [
  [160, 202],
  [214, 202],
];
/** The segment from a to b, shortened by ra at a and rb at b (edges stop at the nodes' rims). */
const between = (a, ra, b, rb) => {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const ux = (b[0] - a[0]) / length,
    uy = (b[1] - a[1]) / length;
  return [a[0] + ux * ra, a[1] + uy * ra, b[0] - ux * rb, b[1] - uy * rb];
};
const layers = [
  // solid ownership edges
  { shape: union(segment(...root, ...left, 10), ...leftKids.map((k) => segment(...left, ...k, 8))), color: EDGE },
  // the edge to the owner that is gone, and its dependents' edges, dashed
  { shape: dashedSegment(...between(root, 26, gone, 24), 8, 12, 8), color: faded(EDGE, 0.75) },
  { shape: union(...goneKids.map((k) => dashedSegment(...between(gone, 24, k, 18), 7, 10, 7))), color: ORANGE },
  // live nodes
  { shape: circle(...root, 26), color: WHITE },
  { shape: circle(...root, 11), color: [50, 108, 229, 1] },
  { shape: circle(...left, 20), color: WHITE },
  { shape: union(...leftKids.map((k) => circle(...k, 16))), color: WHITE },
  // the owner that is gone: a dashed ring
  { shape: dashedRing(...gone, 18, 6, 0.45, Math.PI / 4, 0.2), color: faded(WHITE, 0.9) },
  // its dependents: one already collected (an empty ring), one being collected (crossed out)
  { shape: ring(...goneKids[0], 13.5, 5), color: ORANGE },
  { shape: circle(...goneKids[1], 16), color: ORANGE },
  {
    shape: union(
      segment(goneKids[1][0] - 7, goneKids[1][1] - 7, goneKids[1][0] + 7, goneKids[1][1] + 7, 5),
      segment(goneKids[1][0] - 7, goneKids[1][1] + 7, goneKids[1][0] + 7, goneKids[1][1] - 7, 5),
    ),
    color: [120, 40, 0, 1],
  },
];
const tile = roundedSquare(8, 8, SIZE - 16, 44);

// --- Rasterise.
const pixels = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const x = px + (sx + 0.5) / SAMPLES,
          y = py + (sy + 0.5) / SAMPLES;
        if (tile(x, y) > 0) continue; // transparent outside the tile
        let c = background(y);
        for (const { shape, color } of layers) {
          if (shape(x, y) <= 0) {
            const alpha = color[3];
            c = [c[0] * (1 - alpha) + color[0] * alpha, c[1] * (1 - alpha) + color[1] * alpha, c[2] * (1 - alpha) + color[2] * alpha, 1];
          }
        }
        r += c[0];
        g += c[1];
        b += c[2];
        a += 1;
      }
    }
    const i = (py * SIZE + px) * 4;
    // premultiplied sums → straight alpha
    pixels[i] = a ? Math.round(r / a) : 0;
    pixels[i + 1] = a ? Math.round(g / a) : 0;
    pixels[i + 2] = a ? Math.round(b / a) : 0;
    pixels[i + 3] = Math.round((a / (SAMPLES * SAMPLES)) * 255);
  }
}

// --- PNG: signature, IHDR, one IDAT (filter 0 per row), IEND.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) pixels.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, png);
console.log(`wrote ${out} (${png.length} bytes)`);
