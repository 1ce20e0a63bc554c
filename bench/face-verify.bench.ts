/**
 * One face verification (the verified picture and its burst), BEFORE and
 * AFTER the one-pass change, side by side in one run, on the same bursts and
 * the same engine:
 *
 * - AFTER is the server's one pass, analyzeTake
 *   (apps/server/src/biometrics/face-captures.ts), on `image` + `frames`
 *   (3 pictures, each sent once): each picture decoded and re-encoded once,
 *   analysed once, all at once, and the burst check of then
 *   (legacy-burst-check.ts: the product answers a challenge now) reading
 *   those analyses.
 * - BEFORE reproduces the previous path with the engine's public functions:
 *   the web sent the verified picture again inside `frames` (4 pictures in
 *   the body); the server normalised and analysed `image`, then normalised
 *   each frame one after another (`image` again), then analysed every frame
 *   (`image` a second time) and decoded every frame once more for the
 *   burst's thumbnails. The only difference from the old code is that each
 *   analysis now also makes its thumbnail (a 64x64 resize of pixels already
 *   decoded), so BEFORE carries that small cost too.
 *
 * Both end with the 1:1 comparison against an enrolled template; database
 * and HTTP are left out (the same for both). Measured through the worker
 * pool the server runs (default size) and on the main thread:
 * - latency: one verification at a time, BEFORE and AFTER alternating on
 *   each burst so that drift of a shared machine hits both alike;
 * - throughput: THROUGHPUT_CLIENTS verifications in flight at a time;
 * - passes: decodes/re-encodes, analyses and extra decodes per verification,
 *   counted on the real engine.
 * Bursts are built from fixtures/faces/holdout photos (a 640x400 window
 * moved by a few pixels between frames); only bursts whose picture has a
 * usable face are kept (a refused picture ends both paths early).
 *
 *   npm run bench:face-verify -w bench     (FACE_FIXTURES_DIR to point elsewhere)
 *
 * Results also go to bench/results/face-verify.json.
 */
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { analyzeTake } from '../apps/server/src/biometrics/face-captures';
import { type FaceAnalysis, type FaceService } from '../apps/server/src/biometrics/face-engine';
import { defaultThreadCount, FacePool } from '../apps/server/src/biometrics/face-pool';
import {
  observeNormalisation,
  validateAndNormalizeImage,
} from '../apps/server/src/biometrics/image';
import { AppError } from '../apps/server/src/lib/app-error';
import { fixtureDir, listFixtures } from '../apps/server/test/faces/fixtures';
import { percentile } from '../research/face/metrics';
import { baselineDescriptor } from '../research/face/study-engine.mjs';
import { hasHoldoutOrSkip, ms, ratio } from './face-bench-support';
import { evaluateBurst } from './legacy-burst-check';

const RESULTS_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'results',
  'face-verify.json',
);
const FRAME = { width: 640, height: 400 };
const MARGIN = 40;
/** Where the 640x400 window sits in each frame of a burst: a head moving a few pixels. */
const BURST_SHIFTS: Array<[number, number]> = [
  [0, 0],
  [6, 3],
  [12, 5],
];
const LATENCY_ROUNDS = 2;
const THROUGHPUT_ROUNDS = 2;
const THROUGHPUT_CLIENTS = 8;

type Burst = { name: string; image: string; frames: string[] };
type Path = (service: FaceService, burst: Burst, template: FaceAnalysis) => Promise<boolean>;

/** A burst of webcam-sized frames of one photo, as base64 JPEGs (the picture first). */
async function burstOf(file: string): Promise<string[]> {
  const scene = await sharp(file)
    .resize(FRAME.width + 2 * MARGIN, FRAME.height + 2 * MARGIN, {
      fit: 'cover',
      position: sharp.strategy.attention,
    })
    .toBuffer();
  return Promise.all(
    BURST_SHIFTS.map(async ([dx, dy]) =>
      (
        await sharp(scene)
          .extract({ left: MARGIN + dx, top: MARGIN + dy, ...FRAME })
          .jpeg({ quality: 92 })
          .toBuffer()
      ).toString('base64'),
    ),
  );
}

/** AFTER: the server's path, on the body the web sends now. */
const after: Path = async (service, burst, template) => {
  const captures = await analyzeTake(service, [burst.image, ...burst.frames]);
  const analyses = captures.map((capture) => capture.analysis);
  const matched = analyses[0] ? service.compare(analyses[0], template).match : false;
  return matched && evaluateBurst(analyses, service.threshold).passed;
};

/** Decodes the old burst check made besides the analyses (for the passes table). */
let thumbnailDecodes = 0;

/** The old burst check: every frame analysed, then decoded again for its thumbnail. */
async function oldCheckBurst(service: FaceService, frames: Buffer[]) {
  const faces = await Promise.all(frames.map((frame) => service.analyze(frame)));
  const thumbs = await Promise.all(
    frames.map((frame) => {
      thumbnailDecodes++;
      return sharp(frame, { failOn: 'warning' })
        .autoOrient()
        .resize(64, 64, { fit: 'fill' })
        .greyscale()
        .raw()
        .toBuffer();
    }),
  );
  return evaluateBurst(
    faces.map((face, i) => ({ ...face, thumbnail: thumbs[i] ?? face.thumbnail })),
    service.threshold,
  );
}

/** BEFORE: the previous path, on the body the web sent then (`image` again inside `frames`). */
const before: Path = async (service, burst, template) => {
  const oldFrames = [burst.image, ...burst.frames];
  const probeJpeg = (await validateAndNormalizeImage(burst.image)).jpeg;
  const probe = await service.analyze(probeJpeg);
  const frames: Buffer[] = [];
  for (const frame of oldFrames) frames.push((await validateAndNormalizeImage(frame)).jpeg);
  const matched = service.compare(probe, template).match;
  if (!frames.some((frame) => frame.equals(probeJpeg))) return false;
  return matched && (await oldCheckBurst(service, frames)).passed;
};

/** Counts the passes one verification makes, on the real engine (nothing is mocked). */
async function passesOf(run: Path, service: FaceService, burst: Burst, template: FaceAnalysis) {
  let normalised = 0;
  let analysed = 0;
  const stop = observeNormalisation(() => normalised++);
  const counting: FaceService = {
    threshold: service.threshold,
    thresholdFor: (federativeUnit) => service.thresholdFor(federativeUnit),
    descriptorVersion: service.descriptorVersion,
    ready: () => service.ready(),
    analyze: (image) => {
      analysed++;
      return service.analyze(image);
    },
    compare: (a, b, threshold) => service.compare(a, b, threshold),
    close: () => service.close(),
  };
  const thumbnailsBefore = thumbnailDecodes;
  try {
    await run(counting, burst, template);
  } finally {
    stop();
  }
  return { normalised, analysed, thumbnailDecodes: thumbnailDecodes - thumbnailsBefore };
}

async function latency(service: FaceService, bursts: Burst[], template: FaceAnalysis) {
  const samples = { before: [] as number[], after: [] as number[] };
  const verified = { before: 0, after: 0 };
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const [index, burst] of bursts.entries()) {
      const order =
        (round + index) % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const which of order) {
        const started = performance.now();
        const ok = await (which === 'before' ? before : after)(service, burst, template);
        samples[which].push(performance.now() - started);
        if (ok) verified[which]++;
      }
    }
  }
  const summary = (xs: number[]) => ({
    samples: xs.length,
    p50: percentile(xs, 50),
    p95: percentile(xs, 95),
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
  });
  return { before: summary(samples.before), after: summary(samples.after), verified };
}

/**
 * THROUGHPUT_CLIENTS verifications in flight at any time until all are done,
 * as that many examiners verifying at once (all at once would overflow the
 * pool's queue, which answers 503 then, as the server does).
 */
async function throughput(
  run: Path,
  service: FaceService,
  bursts: Burst[],
  template: FaceAnalysis,
) {
  const work = Array.from({ length: THROUGHPUT_ROUNDS }, () => bursts).flat();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: THROUGHPUT_CLIENTS }, async () => {
      while (next < work.length) {
        const burst = work[next++];
        if (burst) await run(service, burst, template);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { verifications: work.length, seconds, perSecond: work.length / seconds };
}

async function main(): Promise<void> {
  if (!hasHoldoutOrSkip()) return;
  const cores = availableParallelism();
  const engine = new FacePool({ inProcess: true });
  await engine.ready();

  // Bursts whose picture has a usable face; the template is another photo of the first person.
  const photos = listFixtures('holdout');
  const bursts: Burst[] = [];
  for (const photo of photos) {
    const [image, ...frames] = await burstOf(photo.path);
    if (!image) continue;
    try {
      await engine.analyze((await validateAndNormalizeImage(image)).jpeg);
      bursts.push({ name: photo.file, image, frames });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
    }
  }
  const enrolled = photos.find((p) => p.person === 'h01' && p.file !== bursts[0]?.name);
  if (!enrolled || bursts.length === 0) throw new Error('holdout sem fotos utilizáveis');
  const template = await engine.analyze(
    (await validateAndNormalizeImage(fs.readFileSync(enrolled.path))).jpeg,
  );
  console.log(
    `Face verification benchmark: ${bursts.length} bursts of ${BURST_SHIFTS.length} pictures ` +
      `(${photos.length - bursts.length} holdout photos without a usable face left out), ` +
      `${cores} cores, node ${process.version}`,
  );

  const firstBurst = bursts[0]!;
  const passes = {
    before: await passesOf(before, engine, firstBurst, template),
    after: await passesOf(after, engine, firstBurst, template),
  };

  const threads = defaultThreadCount();
  const pool = new FacePool({ threads });
  await pool.ready();
  const latencyPool = await latency(pool, bursts, template);
  const latencyMain = await latency(engine, bursts, template);
  const throughputPool = {
    before: await throughput(before, pool, bursts, template),
    after: await throughput(after, pool, bursts, template),
  };
  const throughputMain = {
    before: await throughput(before, engine, bursts, template),
    after: await throughput(after, engine, bursts, template),
  };
  await pool.close();

  // For scale: the plain face-api pipeline on one 640x400 picture, analysis only.
  const plainMs: number[] = [];
  for (const burst of bursts) {
    const bytes = Buffer.from(burst.image, 'base64');
    const started = performance.now();
    await baselineDescriptor(bytes, { inputSize: 416, scoreThreshold: 0.5 });
    plainMs.push(performance.now() - started);
  }
  await engine.close();

  const row = (cells: string[]) =>
    console.log(cells.map((c, i) => c.padEnd(i === 0 ? 40 : 14)).join(''));
  console.log('\nPasses per verification (counted on the real engine)');
  row(['', 'before', 'after']);
  row([
    'pictures in the body',
    String(1 + firstBurst.frames.length + 1),
    String(1 + firstBurst.frames.length),
  ]);
  row([
    'decodes + re-encodes (upload check)',
    String(passes.before.normalised),
    String(passes.after.normalised),
  ]);
  row(['face analyses', String(passes.before.analysed), String(passes.after.analysed)]);
  row([
    'decodes for burst thumbnails',
    String(passes.before.thumbnailDecodes),
    `${passes.after.thumbnailDecodes} (made by the analysis)`,
  ]);

  console.log(
    `\nLatency per verification, one at a time (${latencyPool.before.samples} each; ${BURST_SHIFTS.length} pictures)`,
  );
  row(['', 'before p50', 'after p50', 'after/before', 'before p95', 'after p95']);
  for (const [name, r] of [
    [`pool (${threads} worker${threads > 1 ? 's' : ''}, default)`, latencyPool],
    ['main thread (in process)', latencyMain],
  ] as const) {
    row([
      name,
      ms(r.before.p50),
      ms(r.after.p50),
      ratio(r.after.p50, r.before.p50),
      ms(r.before.p95),
      ms(r.after.p95),
    ]);
  }
  console.log(
    `  verified: before ${latencyPool.verified.before}, after ${latencyPool.verified.after} of ${latencyPool.before.samples} (pool)`,
  );
  console.log(
    `  plain face-api analysis alone, one 640x400 picture: p50 ${ms(percentile(plainMs, 50))}`,
  );

  console.log(
    `\nThroughput (${throughputPool.before.verifications} verifications, ${THROUGHPUT_CLIENTS} in flight at a time)`,
  );
  row(['', 'before verif./s', 'after verif./s', 'after/before']);
  for (const [name, r] of [
    [`pool (${threads} worker${threads > 1 ? 's' : ''}, default)`, throughputPool],
    ['main thread (in process)', throughputMain],
  ] as const) {
    row([
      name,
      r.before.perSecond.toFixed(2),
      r.after.perSecond.toFixed(2),
      ratio(r.after.perSecond, r.before.perSecond),
    ]);
  }

  const results = {
    date: new Date().toISOString(),
    machine: { cores, node: process.version, platform: process.platform },
    fixtures: fixtureDir('holdout'),
    bursts: bursts.map((b) => b.name),
    picturesPerBurst: BURST_SHIFTS.length,
    passes,
    latencyMs: { pool: { threads, ...latencyPool }, mainThread: latencyMain },
    throughput: { pool: { threads, ...throughputPool }, mainThread: throughputMain },
    plainFaceApiAnalysisP50Ms: percentile(plainMs, 50),
  };
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nResults written to ${RESULTS_FILE}`);
}

await main();
