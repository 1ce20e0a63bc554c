/**
 * Where the face fixture photos live and how they pair up.
 * - `dev` (calibration and tests) is in the repository, beside this file
 *   (`dev/`, with its attribution): every clone runs the face tests.
 * - `holdout` (measurement only) stays outside it, in
 *   `FACE_FIXTURES_DIR/holdout` (default: ../shared/fixtures/faces next to
 *   the repository); only the benchmark reads it, and says so when absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../../../..');

export type FixtureSplit = 'dev' | 'holdout';

export type FixturePhoto = { file: string; person: string; path: string };

/** The folder of a split's photos. */
export function fixtureDir(split: FixtureSplit): string {
  if (split === 'dev') return path.join(HERE, 'dev');
  return path.resolve(
    process.env.FACE_FIXTURES_DIR ?? path.join(REPO_ROOT, '..', 'shared', 'fixtures', 'faces'),
    'holdout',
  );
}

/** Whether a split's photos are here: always for `dev`; `holdout` only where it was laid out. */
export function hasFaceFixtures(split: FixtureSplit): boolean {
  return fs.existsSync(fixtureDir(split));
}

/** `pNN-K.jpg`: person NN, capture K. Same person prefix = genuine pair. */
export function listFixtures(split: FixtureSplit): FixturePhoto[] {
  const dir = fixtureDir(split);
  return fs
    .readdirSync(dir)
    .filter((file) => /^[a-z]\d+-\d+\.jpe?g$/i.test(file))
    .sort()
    .map((file) => ({ file, person: file.split('-')[0] ?? file, path: path.join(dir, file) }));
}

export function fixturePath(split: FixtureSplit, file: string): string {
  return path.join(fixtureDir(split), file);
}

/** Every unordered pair of photos, marked genuine or impostor. */
export function fixturePairs(
  photos: FixturePhoto[],
): Array<{ a: FixturePhoto; b: FixturePhoto; genuine: boolean }> {
  const pairs = [];
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const a = photos[i];
      const b = photos[j];
      if (a && b) pairs.push({ a, b, genuine: a.person === b.person });
    }
  }
  return pairs;
}
