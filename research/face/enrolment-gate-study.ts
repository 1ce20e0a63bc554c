/**
 * Dev-only study behind the enrolment gate (DEFAULT_ENROLMENT_LIMITS in
 * src/biometrics/enrolment-gate.ts):
 *
 *   npm run face:enrolment-gate-study -w research
 *
 * Reads the dev photos ONLY (holdout is for the benchmark's single
 * measurement) and writes nothing. Under a minute on 2 cores.
 *
 * 1. Every dev photo, normalised like an upload and analysed by the engine
 *    with its own gates: the gate's measures and verdict (or the engine's
 *    refusal: a failure to acquire).
 * 2. MEAN_FRONTAL_SHAPE recomputed from the photos the gate accepts, against
 *    the constant in the code (they must agree: the shape is defined by the
 *    accepted set).
 * 3. For p01 and p02 (the two people with several photos): how a verifier
 *    fares when each photo is the enrolment, the others of the same person
 *    the probes (fused distance at the match threshold): the cost of
 *    enrolling an expressive or turned capture, as dev can show it.
 * 4. Synthetic occlusions of every accepted photo (dark glasses, a mask over
 *    nose and mouth, a hand over half the lower face, hair over one eye, a
 *    bar over the mouth), painted with the photo's own landmarks: the
 *    engine's refusals, and the gate's verdicts on what it accepts. The
 *    landmark model fills in a plausible face under most of them, so this
 *    says what the shape test can and cannot see.
 * 5. The gate's absolute yaw and pitch against relativePose (the challenge's
 *    motion between two pictures, @exame/shared) for pairs of photos of one
 *    person: the difference of two absolute poses should be the relative one.
 */
import { relativePose } from '@exame/shared';
import sharp from 'sharp';
import {
  checkEnrolmentCapture,
  exceededLimits,
  type EnrolmentCheck,
  type EnrolmentMeasures,
} from '../../apps/server/src/biometrics/enrolment-gate';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  faceDistance,
  type FaceAnalysis,
} from '../../apps/server/src/biometrics/face-engine';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import {
  faceFrame,
  MEAN_FRONTAL_SHAPE,
  symmetricShape,
} from '../../apps/server/src/biometrics/face-shape';
import { AppError } from '../../apps/server/src/lib/app-error';
import { devPhoto } from '../../apps/server/test/faces/captures';
import { listFixtures } from '../../apps/server/test/faces/fixtures';

type Analysed = {
  file: string;
  face: FaceAnalysis | null;
  refusal: string;
  check?: EnrolmentCheck;
};

const COLUMNS: Array<[keyof EnrolmentMeasures, string, number]> = [
  ['faceSizePx', 'size', 0],
  ['sharpness', 'sharp', 0],
  ['detectionScore', 'det', 2],
  ['yaw', 'yaw', 1],
  ['pitch', 'pitch', 1],
  ['roll', 'roll', 1],
  ['mouthOpening', 'mouth', 3],
  ['rightEyeOpenness', 'eyeR', 3],
  ['leftEyeOpenness', 'eyeL', 3],
  ['mouthTilt', 'tilt', 3],
  ['mouthDistortion', 'distort', 3],
  ['shapeMisfit', 'misfit', 3],
];

const short = (code: string) => code.replace('FACE_ENROL_', '').replace('FACE_', 'engine:');

function row(label: string, m: EnrolmentMeasures | null, verdict: string): string {
  const cells = COLUMNS.map(([key, , digits]) => (m ? m[key].toFixed(digits) : '-').padStart(8));
  return `${label.padEnd(10)}${cells.join('')}  ${verdict}`;
}

function header(): string {
  return `${'photo'.padEnd(10)}${COLUMNS.map(([, name]) => name.padStart(8)).join('')}  verdict`;
}

async function analyse(engine: FacePool, jpeg: Buffer): Promise<FaceAnalysis | string> {
  try {
    return await engine.analyze(jpeg);
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

function verdictOf(check: EnrolmentCheck): string {
  return check.ok ? 'accepted' : short(check.code);
}

/** The verdict and every limit broken (the first one decides the code). */
function reasonOf(check: EnrolmentCheck): string {
  return check.ok
    ? 'accepted'
    : `${short(check.code)} (${exceededLimits(check.measures).join(', ')})`;
}

/** The largest difference between the constant mean shape and the one the accepted photos give. */
function meanShapeDrift(accepted: Analysed[]): number {
  const byPerson = new Map<string, Array<ReadonlyArray<readonly [number, number]>>>();
  for (const { file, face } of accepted) {
    if (!face) continue;
    const person = file.split('-')[0] ?? file;
    byPerson.set(person, [
      ...(byPerson.get(person) ?? []),
      symmetricShape(faceFrame(face.landmarks).points),
    ]);
  }
  const average = (shapes: Array<ReadonlyArray<readonly [number, number]>>) =>
    MEAN_FRONTAL_SHAPE.map((_, i): [number, number] => [
      shapes.reduce((s, shape) => s + (shape[i]?.[0] ?? 0), 0) / shapes.length,
      shapes.reduce((s, shape) => s + (shape[i]?.[1] ?? 0), 0) / shapes.length,
    ]);
  const mean = average([...byPerson.values()].map(average));
  console.log(`people in the mean shape: ${byPerson.size} (${[...byPerson.keys()].join(', ')})`);
  return Math.max(
    ...MEAN_FRONTAL_SHAPE.map(([x, y], i) =>
      Math.hypot(x - (mean[i]?.[0] ?? 0), y - (mean[i]?.[1] ?? 0)),
    ),
  );
}

function enrolmentCosts(all: Analysed[]): void {
  console.log(
    `\n3. Each p01/p02 photo as the enrolment, the person's other photos as probes (fused distance, match < ${DEFAULT_FACE_MATCH_THRESHOLD}):`,
  );
  for (const person of ['p01', 'p02']) {
    const mine = all.filter((a) => a.face && a.file.startsWith(`${person}-`));
    for (const enrolled of mine) {
      const d = mine
        .filter((other) => other !== enrolled)
        .map((other) => faceDistance(enrolled.face as FaceAnalysis, other.face as FaceAnalysis));
      const matched = d.filter((x) => x < DEFAULT_FACE_MATCH_THRESHOLD).length;
      const verdict = enrolled.check ? verdictOf(enrolled.check) : enrolled.refusal;
      console.log(
        `  ${enrolled.file.padEnd(10)} mean ${(d.reduce((s, x) => s + x, 0) / d.length).toFixed(3)}  worst ${Math.max(...d).toFixed(3)}  matched ${matched}/${d.length}  gate: ${verdict}`,
      );
    }
  }
}

type Occluder = { name: string; svg: (l: readonly number[], width: number) => string };

const at = (l: readonly number[], i: number): [number, number] => [
  l[2 * i] ?? 0,
  l[2 * i + 1] ?? 0,
];

function rect(x: number, y: number, w: number, h: number, fill: string): string {
  return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="${fill}"/>`;
}

const OCCLUDERS: Occluder[] = [
  {
    name: 'dark glasses',
    svg: (l) => {
      const [x0] = at(l, 0);
      const [x1] = at(l, 16);
      const e = at(l, 45)[0] - at(l, 36)[0];
      const y = (at(l, 36)[1] + at(l, 45)[1]) / 2;
      return rect(x0, y - e * 0.25, x1 - x0, e * 0.5, '#111');
    },
  },
  {
    name: 'mask',
    svg: (l) => {
      const [x0] = at(l, 2);
      const [x1] = at(l, 14);
      const e = at(l, 45)[0] - at(l, 36)[0];
      const top = at(l, 29)[1];
      const bottom = at(l, 8)[1] + e * 0.15;
      return rect(x0 - e * 0.1, top, x1 - x0 + e * 0.2, bottom - top, '#cfe3f0');
    },
  },
  {
    name: 'hand',
    svg: (l) => {
      const [cx, top] = at(l, 30);
      const [x1] = at(l, 14);
      const e = at(l, 45)[0] - at(l, 36)[0];
      return rect(cx, top, x1 - cx + e * 0.2, at(l, 8)[1] - top + e * 0.2, '#d9a48a');
    },
  },
  {
    name: 'hair over an eye',
    svg: (l) => {
      const [x0] = at(l, 0);
      const e = at(l, 45)[0] - at(l, 36)[0];
      const [cx] = at(l, 27);
      return rect(x0 - e * 0.2, at(l, 19)[1] - e * 0.6, cx - x0, e, '#3a2a20');
    },
  },
  {
    name: 'bar over the mouth',
    svg: (l) => {
      const [x0] = at(l, 3);
      const [x1] = at(l, 13);
      const e = at(l, 45)[0] - at(l, 36)[0];
      return rect(x0, at(l, 51)[1] - e * 0.1, x1 - x0, e * 0.4, '#888');
    },
  },
];

async function occlusions(engine: FacePool, accepted: Analysed[]): Promise<void> {
  console.log('\n4. Synthetic occlusions of the accepted photos (engine refusals, then the gate):');
  for (const occluder of OCCLUDERS) {
    const tally = new Map<string, string[]>();
    for (const { file, face } of accepted) {
      if (!face) continue;
      const jpeg = await devPhoto(file);
      const svg = `<svg width="${face.imageWidth}" height="${face.imageHeight}">${occluder.svg(face.landmarks, face.imageWidth)}</svg>`;
      const painted = await sharp(jpeg)
        .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
        .jpeg({ quality: 90 })
        .toBuffer();
      const result = await analyse(engine, painted);
      const check = typeof result === 'string' ? null : checkEnrolmentCapture(result);
      const verdict = check ? verdictOf(check) : short(result as string);
      const broken = check && !check.ok ? `; ${exceededLimits(check.measures).join(', ')}` : '';
      const misfit = check ? ` (misfit ${check.measures.shapeMisfit.toFixed(3)}${broken})` : '';
      tally.set(verdict, [...(tally.get(verdict) ?? []), `${file.replace('.jpg', '')}${misfit}`]);
    }
    console.log(`  ${occluder.name}:`);
    for (const [verdict, files] of tally)
      console.log(`    ${verdict.padEnd(18)} ${files.length}: ${files.join(', ')}`);
  }
}

const SAME_PERSON_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['p01-3', 'p01-1'],
  ['p01-3', 'p01-7'],
  ['p01-5', 'p01-8'],
  ['p01-3', 'p01-2'],
  ['p02-4', 'p02-2'],
  ['p02-4', 'p02-1'],
  ['p02-4', 'p02-3'],
];

function poseAgreement(all: Analysed[]): void {
  console.log('\n5. Absolute pose differences against relativePose (degrees, first -> second):');
  const byName = new Map(all.map((a) => [a.file.replace('.jpg', ''), a]));
  for (const [a, b] of SAME_PERSON_PAIRS) {
    const first = byName.get(a);
    const second = byName.get(b);
    if (!first?.face || !second?.face || !first.check || !second.check) continue;
    const relative = relativePose(first.face.landmarks, second.face.landmarks);
    const yaw = second.check.measures.yaw - first.check.measures.yaw;
    const pitch = second.check.measures.pitch - first.check.measures.pitch;
    console.log(
      `  ${a} -> ${b}: yaw ${yaw.toFixed(1).padStart(6)} vs ${relative.yaw.toFixed(1).padStart(6)}   pitch ${pitch.toFixed(1).padStart(6)} vs ${relative.pitch.toFixed(1).padStart(6)}`,
    );
  }
}

async function main(): Promise<void> {
  const engine = new FacePool({ inProcess: true });
  await engine.ready();
  const all: Analysed[] = [];
  console.log('1. Dev photos (engine gates on; a refusal there is a failure to acquire):');
  console.log(header());
  for (const photo of listFixtures('dev')) {
    const result = await analyse(engine, await devPhoto(photo.file));
    if (typeof result === 'string') {
      all.push({ file: photo.file, face: null, refusal: short(result) });
      console.log(
        row(photo.file.replace('.jpg', ''), null, `failure to acquire (${short(result)})`),
      );
      continue;
    }
    const check = checkEnrolmentCapture(result);
    all.push({ file: photo.file, face: result, refusal: '', check });
    console.log(row(photo.file.replace('.jpg', ''), check.measures, reasonOf(check)));
  }
  const accepted = all.filter((a) => a.check?.ok);
  const tally = new Map<string, string[]>();
  for (const a of all) {
    const verdict = a.check ? verdictOf(a.check) : `failure to acquire`;
    tally.set(verdict, [...(tally.get(verdict) ?? []), a.file.replace('.jpg', '')]);
  }
  for (const [verdict, files] of tally)
    console.log(`  ${verdict.padEnd(20)} ${files.length}: ${files.join(', ')}`);

  console.log('\n2. MEAN_FRONTAL_SHAPE against the accepted photos:');
  console.log(`  largest point difference: ${meanShapeDrift(accepted).toFixed(4)} eye distances`);

  enrolmentCosts(all);
  await occlusions(engine, accepted);
  poseAgreement(all);
  await engine.close();
}

await main();
