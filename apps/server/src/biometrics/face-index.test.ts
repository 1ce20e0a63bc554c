/**
 * The one-to-many face index: its bookkeeping, and its answers against the
 * brute-force search on a few thousand synthetic exam faces.
 */
import { describe, expect, it } from 'vitest';
import { FRAUD_MATCH_THRESHOLD } from '../config/fraud-threshold';
import { AppError } from '../lib/app-error';
import { DESCRIPTOR_LENGTH, faceDistance } from './descriptor';
import { exactSearch, FaceIndex } from './face-index';

/** Seeded normals (mulberry32, Box-Muller). */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * Exam faces of synthetic persons: other persons at a fused distance near 1,
 * exams of one person near 0.3 (a 20-dimensional latent face, so that the
 * distances spread as real ones do).
 */
function faces(seed: number) {
  const normal = normals(seed);
  const common = Array.from({ length: 192 }, (_, j) => 0.03 * Math.sin(j + 1));
  return {
    person(): number[] {
      const z = Array.from({ length: 20 }, normal);
      return Array.from({ length: DESCRIPTOR_LENGTH }, (_, i) =>
        i < 128
          ? 0.036 * z[i % 20]! + 0.015 * normal()
          : common[i - 128]! + 0.066 * z[(i * 7) % 20]! + 0.022 * normal(),
      );
    },
    exam(person: number[]): Float32Array {
      const quality = Math.exp(0.38 * normal());
      return Float32Array.from(
        person,
        (x, i) => x + (i < 128 ? 0.0155 : 0.03) * quality * normal(),
      );
    },
  };
}

function expectInvalid(run: () => unknown): void {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('FACE_TEMPLATE_INVALID');
}

describe('FaceIndex', () => {
  it('adds, replaces and removes faces, and reuses the slot of a removed one', () => {
    const synthetic = faces(1);
    const [a, b, c] = [synthetic.person(), synthetic.person(), synthetic.person()];
    const index = new FaceIndex({ initialCapacity: 16, exactUpTo: 0 });
    index.upsert('a', synthetic.exam(a));
    index.upsert('b', synthetic.exam(b));
    expect(index.size).toBe(2);
    expect(index.has('a')).toBe(true);

    const probe = synthetic.exam(a);
    expect(index.search(probe, { maxDistance: 0.6 }).map((hit) => hit.key)).toEqual(['a']);
    // Replacing a's face with c's: a is now found with c's face, not with its own.
    index.upsert('a', synthetic.exam(c));
    expect(index.size).toBe(2);
    expect(index.search(probe, { maxDistance: 0.6 })).toEqual([]);
    expect(index.search(synthetic.exam(c), { maxDistance: 0.6 }).map((hit) => hit.key)).toEqual([
      'a',
    ]);

    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.has('a')).toBe(false);
    expect(index.size).toBe(1);
    expect(index.search(synthetic.exam(c), { maxDistance: 2 }).map((hit) => hit.key)).toEqual([
      'b',
    ]);

    // 16 slots in use (a's was reused by x0), then one freed and reused by d.
    for (let n = 0; n < 15; n++) index.upsert(`x${n}`, synthetic.exam(synthetic.person()));
    index.remove('x0');
    index.upsert('d', synthetic.exam(a));
    expect(index.capacity).toBe(16);
    expect(index.size).toBe(16);
    expect(index.search(probe, { maxDistance: 0.6 }).map((hit) => hit.key)).toEqual(['d']);
  });

  it('doubles its capacity as it fills', () => {
    const synthetic = faces(2);
    const index = new FaceIndex({ initialCapacity: 16, exactUpTo: 0 });
    const templates = Array.from({ length: 100 }, () => synthetic.exam(synthetic.person()));
    templates.forEach((template, i) => index.upsert(`e${i}`, template));
    expect(index.size).toBe(100);
    expect(index.capacity).toBe(128);
    templates.forEach((template, i) => {
      expect(index.search(template, { maxDistance: 0.01, limit: 1 })).toEqual([
        { key: `e${i}`, distance: 0 },
      ]);
    });
  });

  it('finds what the exact search finds on 2 000 exam faces', () => {
    const synthetic = faces(3);
    const entries: Array<[string, Float32Array]> = [];
    const planted: string[][] = [];
    for (let person = 0; person < 1600; person++) {
      const face = synthetic.person();
      const exams = person < 200 ? 3 : 1;
      const keys = Array.from({ length: exams }, (_, n) => `p${person}-${n}`);
      for (const key of keys) entries.push([key, synthetic.exam(face)]);
      if (exams > 1) planted.push(keys);
    }
    expect(entries).toHaveLength(2000);
    // The graph from the first face (exactUpTo 0); a lighter one than the
    // defaults keeps the test fast, and it found all at 10 000.
    const index = new FaceIndex({ m: 16, efConstruction: 100, exactUpTo: 0 });
    const scanning = new FaceIndex();
    for (const [key, template] of entries) {
      index.upsert(key, template);
      scanning.upsert(key, template);
    }
    expect(index.approximate).toBe(true);
    expect(scanning.approximate).toBe(false);
    const templates = new Map(entries);

    let found = 0;
    for (const key of planted.map((keys) => keys[0]!)) {
      const options = { maxDistance: FRAUD_MATCH_THRESHOLD, exclude: (k: string) => k === key };
      const hits = index.search(templates.get(key)!, options);
      const exact = exactSearch(entries, templates.get(key)!, options);
      expect(hits).toEqual(exact);
      // Below exactUpTo every face is read: the same hits, the same numbers.
      expect(scanning.search(templates.get(key)!, options)).toEqual(exact);
      found += hits.length;
    }
    // Most exams of one person are under the threshold (same person ~0.3).
    expect(found).toBeGreaterThan(300);

    // The 10 nearest at the 1:1 threshold, for every 40th exam: the graph is
    // approximate, so a few may be missed; what it returns is exact.
    let expected = 0;
    let missed = 0;
    for (const [key, template] of entries.filter((_, i) => i % 40 === 0)) {
      const options = { maxDistance: 0.69, limit: 10, exclude: (k: string) => k === key };
      const hits = index.search(template, options);
      const exact = exactSearch(entries, template, options);
      expect(scanning.search(template, options)).toEqual(exact);
      const keys = new Set(hits.map((hit) => hit.key));
      expected += exact.length;
      missed += exact.filter((hit) => !keys.has(hit.key)).length;
      for (const hit of hits) {
        expect(hit.distance).toBe(faceDistance(template, templates.get(hit.key)!));
        expect(hit.distance).toBeLessThanOrEqual(exact.at(-1)?.distance ?? 0.69);
      }
    }
    expect(expected).toBeGreaterThan(400);
    expect(missed / expected).toBeLessThan(0.02);
  });

  it('drops excluded keys before the limit and returns the closest first', () => {
    const synthetic = faces(4);
    const person = synthetic.person();
    const index = new FaceIndex();
    const exams = Array.from({ length: 6 }, () => synthetic.exam(person));
    exams.forEach((exam, i) => index.upsert(`e${i}`, exam));
    for (let n = 0; n < 200; n++) index.upsert(`other${n}`, synthetic.exam(synthetic.person()));

    const all = index.search(exams[0]!, { maxDistance: 0.8 });
    expect(all[0]).toEqual({ key: 'e0', distance: 0 });
    expect(all.map((hit) => hit.distance)).toEqual(
      [...all.map((hit) => hit.distance)].sort((a, b) => a - b),
    );
    const options = { maxDistance: 0.8, limit: 2, exclude: (key: string) => key === 'e0' };
    const two = index.search(exams[0]!, options);
    expect(two).toEqual(all.slice(1, 3));
    expect(two).toEqual(exactSearch(index.entries(), exams[0]!, options));
  });

  it('rejects a malformed template with FACE_TEMPLATE_INVALID', () => {
    const index = new FaceIndex();
    const good = faces(5).exam(faces(5).person());
    const nan = Float32Array.from(good);
    nan[200] = Number.NaN;
    expectInvalid(() => index.upsert('short', good.subarray(0, 128)));
    expectInvalid(() => index.upsert('nan', nan));
    expect(index.size).toBe(0);
    index.upsert('good', good);
    expectInvalid(() => index.search(good.subarray(1), { maxDistance: 0.4 }));
    expectInvalid(() => exactSearch([['good', good]], nan, { maxDistance: 0.4 }));
  });

  it('reads every face up to exactUpTo, then builds the graph from them and keeps finding', () => {
    const synthetic = faces(6);
    const person = synthetic.person();
    const index = new FaceIndex({ exactUpTo: 50, m: 16, efConstruction: 64 });
    index.upsert('twin-a', synthetic.exam(person));
    for (let n = 0; n < 49; n++) index.upsert(`other${n}`, synthetic.exam(synthetic.person()));
    expect(index.approximate).toBe(false);
    expect(index.capacity).toBe(0);
    const probe = synthetic.exam(person);
    const before = index.search(probe, { maxDistance: FRAUD_MATCH_THRESHOLD });
    expect(before.map((hit) => hit.key)).toEqual(['twin-a']);
    // A removal moves the last face into the freed slot: every other face stays found.
    index.remove('other0');
    index.upsert('other0', synthetic.exam(synthetic.person()));
    expect(index.size).toBe(50);
    for (const [key, template] of index.entries()) {
      expect(index.search(template, { maxDistance: 0.05, limit: 1 })[0]?.key).toBe(key);
    }
    index.upsert('twin-b', synthetic.exam(person));
    expect(index.approximate).toBe(true);
    expect(index.capacity).toBeGreaterThanOrEqual(51);
    index.remove('other3');
    const after = index.search(probe, { maxDistance: FRAUD_MATCH_THRESHOLD });
    expect(after.map((hit) => hit.key).sort()).toEqual(['twin-a', 'twin-b']);
    expect(after).toEqual(
      exactSearch(index.entries(), probe, { maxDistance: FRAUD_MATCH_THRESHOLD }),
    );
  });

  it('a yielding scan of a large index gives the event loop turns and answers as the scan does', async () => {
    const synthetic = faces(7);
    const index = new FaceIndex();
    const person = synthetic.person();
    index.upsert('proxy-a', synthetic.exam(person));
    for (let n = 0; n < 40_000; n++) index.upsert(`other${n}`, synthetic.exam(synthetic.person()));
    index.upsert('proxy-b', synthetic.exam(person));
    expect(index.approximate).toBe(false);
    const probe = synthetic.exam(person);
    const options = { maxDistance: FRAUD_MATCH_THRESHOLD };
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (turns < 1_000) setImmediate(tick);
    };
    setImmediate(tick);
    const yielded = await index.searchYielding(probe, options);
    expect(turns).toBeGreaterThan(1);
    expect(yielded.map((hit) => hit.key).sort()).toEqual(['proxy-a', 'proxy-b']);
    expect(yielded).toEqual(index.search(probe, options));
  });
});
