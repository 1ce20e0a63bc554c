/**
 * Where the face fixture photos live and how they pair up. The photos are
 * test data that must never enter the repository, so they are read from
 * FACE_FIXTURES_DIR (default: ../shared/fixtures/faces next to the
 * repository) and every consumer skips, saying so, when they are absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export type FixtureSplit = 'dev' | 'holdout';

export type FixturePhoto = { file: string; person: string; path: string };

export function faceFixturesDir(): string {
  return path.resolve(
    process.env.FACE_FIXTURES_DIR ?? path.join(REPO_ROOT, '..', 'shared', 'fixtures', 'faces'),
  );
}

export function hasFaceFixtures(split: FixtureSplit = 'dev'): boolean {
  return fs.existsSync(path.join(faceFixturesDir(), split));
}

/** `pNN-K.jpg`: person NN, capture K. Same person prefix = genuine pair. */
export function listFixtures(split: FixtureSplit): FixturePhoto[] {
  const dir = path.join(faceFixturesDir(), split);
  return fs
    .readdirSync(dir)
    .filter((file) => /^[a-z]\d+-\d+\.jpe?g$/i.test(file))
    .sort()
    .map((file) => ({ file, person: file.split('-')[0] ?? file, path: path.join(dir, file) }));
}

export function fixturePath(split: FixtureSplit, file: string): string {
  return path.join(faceFixturesDir(), split, file);
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
