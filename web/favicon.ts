import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { encodePng } from '../core/png.ts';

/**
 * The site's icon, drawn once from one shape: a lightning bolt on the brand's blue. As SVG at a URL naming
 * its content (a year's immutable cache, linked from every page), and as a 32 × 32 ICO at /favicon.ico, the
 * address browsers and other clients ask for without a link (a month's cache: that address cannot change).
 */
const SIZE = 32;
const RADIUS = 6;
const BACKGROUND = [0x0b, 0x3d, 0x91] as const;
const BOLT_COLOUR = [0xff, 0xbf, 0x47] as const;
const BOLT: ReadonlyArray<readonly [number, number]> = [
  [18, 3],
  [7, 18],
  [14.5, 18],
  [12.5, 29],
  [25, 13],
  [17.5, 13],
];
const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

export const FAVICON_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="${SIZE}" height="${SIZE}" rx="${RADIUS}" fill="${hex(BACKGROUND)}"/><path d="M${BOLT.map(([x, y]) => `${x} ${y}`).join(' L')} Z" fill="${hex(BOLT_COLOUR)}"/></svg>`,
);
export const FAVICON_SVG_PATH = `/assets/favicon.${createHash('sha256').update(FAVICON_SVG).digest('hex').slice(0, 16)}.svg`;

function inRoundedSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), SIZE - RADIUS);
  return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2;
}

function inBolt(x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = BOLT.length - 1; i < BOLT.length; j = i++) {
    const [xi, yi] = BOLT[i]!;
    const [xj, yj] = BOLT[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The icon as an RGBA PNG, each pixel the mean of 4 × 4 samples (smooth edges). */
function iconPng(): Buffer {
  const samples = 4;
  const row = SIZE * 4 + 1;
  const raw = Buffer.alloc(row * SIZE);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      let square = 0;
      let bolt = 0;
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const px = x + (sx + 0.5) / samples;
          const py = y + (sy + 0.5) / samples;
          if (!inRoundedSquare(px, py)) continue;
          square++;
          if (inBolt(px, py)) bolt++;
        }
      const at = y * row + 1 + x * 4;
      const share = square === 0 ? 0 : bolt / square;
      for (let c = 0; c < 3; c++) raw[at + c] = Math.round(BACKGROUND[c]! * (1 - share) + BOLT_COLOUR[c]! * share);
      raw[at + 3] = Math.round((square / samples ** 2) * 255);
    }
  }
  return encodePng(SIZE, SIZE, 4, raw, 9);
}

/** An ICO file holding one 32 × 32 PNG image (as every current browser reads it). */
function iconIco(): Buffer {
  const png = iconPng();
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head[6] = SIZE;
  head[7] = SIZE;
  head[8] = 0; // no palette
  head[9] = 0;
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18); // where the image starts
  return Buffer.concat([head, png]);
}

export const FAVICON_ICO = iconIco();

export function serveFaviconSvg(ctx: Context): void {
  ctx.type = 'image/svg+xml';
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = FAVICON_SVG;
}

export function serveFaviconIco(ctx: Context): void {
  ctx.type = 'image/x-icon';
  ctx.set('Cache-Control', 'public, max-age=2592000');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = FAVICON_ICO;
}
