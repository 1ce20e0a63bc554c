// @ts-check
/**
 * What the engine's callers read without running it: where an installed
 * package is, the face-api version every descriptor version names, and the
 * crops of the face box a descriptor averages. Nothing here loads
 * TensorFlow.js, so the server's main thread imports it at start and the
 * networks load only where faces are read (face-runtime.mjs).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Directory of an installed package. Some packages' `exports` maps hide
 * their package.json or the builds we need, so fall back to walking up from
 * the resolved entry point.
 * @param {string} name
 * @returns {string}
 */
export function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    let dir = path.dirname(require.resolve(name));
    while (!fs.existsSync(path.join(dir, 'package.json'))) {
      const parent = path.dirname(dir);
      if (parent === dir) throw new Error(`package.json de ${name} não encontrado`);
      dir = parent;
    }
    return dir;
  }
}

export const FACE_API_DIR = packageDir('@vladmandic/face-api');

/** Installed face-api version: part of every descriptor version (face-engine.ts). */
export const FACE_API_VERSION = /** @type {string} */ (
  JSON.parse(fs.readFileSync(path.join(FACE_API_DIR, 'package.json'), 'utf8')).version
);

/**
 * Crops of the face box whose descriptors are averaged (`jitterCrops` of
 * them, in this order): [shift x, shift y, scale], shifts as fractions of the
 * box. The descriptor moves by ~0.08 when the box moves by a pixel; the mean
 * over the box at 100%, 95% and 105% is steadier
 * (research/face/descriptor-study.ts).
 * @type {ReadonlyArray<readonly [number, number, number]>}
 */
export const BOX_CROPS = Object.freeze([
  /** @type {const} */ ([0, 0, 1]),
  /** @type {const} */ ([0, 0, 0.95]),
  /** @type {const} */ ([0, 0, 1.05]),
]);
