/**
 * `npm run face:take-decision-study -w research`: how a verification
 * decides on a whole challenge take, chosen on the dev photos
 * ONLY (holdout is for the benchmark's single measurement).
 *
 * Every dev photo with a usable face becomes a genuine take (the head turning
 * as a challenge asks: synthetic-takes.ts). An enrolment is the take of one
 * photo whose neutral pictures pass the enrolment gate (the template is their
 * two descriptors, as enrolFace makes it); probes are the takes of the
 * person's other photos (genuine) and of everybody else (impostor). Each
 * rule turns a probe take into one fused distance to the template (the mean
 * over the template's captures, compareWithEnrolment), and the study prints
 * FNMR and FMR at the configured threshold and the margin to the closest
 * impostor:
 * - neutral: the mean over the take's two neutral pictures (the product's rule);
 * - all: the mean over every picture of the take, turned ones included;
 * - first: the first picture alone (what one still capture would give);
 * - best-neutral: the closer of the two neutral pictures.
 * LIVENESS_CACHE=<dir> reuses analyses between runs.
 */
import { FACE_MOVES, type FaceMove } from '@exame/shared';
import { checkEnrolmentCapture } from '../../apps/server/src/biometrics/enrolment-gate';
import {
  compareWithEnrolment,
  DEFAULT_FACE_MATCH_THRESHOLD,
  templateOf,
  type FaceAnalysis,
} from '../../apps/server/src/biometrics/face-engine';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import { analyseCached } from '../../apps/server/test/faces/cached-analysis';
import { listFixtures } from '../../apps/server/test/faces/fixtures';
import { genuineTake, loadSource, type Source } from '../../apps/server/test/faces/synthetic-takes';

const RULES = ['neutral', 'all', 'first', 'best-neutral'] as const;
type Rule = (typeof RULES)[number];

const TAKES_PER_PHOTO = 2;

function stepsFor(seed: number): FaceMove[] {
  // Two or three moves, as the server draws them; fixed per seed for a repeatable study.
  const moves = [...FACE_MOVES];
  const count = 2 + (seed % 2);
  const out: FaceMove[] = [];
  let state = seed * 7919 + 13;
  while (out.length < count) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const [move] = moves.splice(state % moves.length, 1);
    if (move) out.push(move);
  }
  return out;
}

async function takeOf(
  engine: FacePool,
  source: Source,
  seed: number,
): Promise<FaceAnalysis[] | null> {
  const pictures = await genuineTake(source, stepsFor(seed), { seed });
  const faces: FaceAnalysis[] = [];
  for (const picture of pictures) {
    const result = await analyseCached(engine, picture);
    if (typeof result === 'string') return null;
    faces.push(result);
  }
  return faces;
}

function distance(
  engine: FacePool,
  rule: Rule,
  take: FaceAnalysis[],
  template: number[][],
): number {
  const compare = (face: FaceAnalysis) =>
    compareWithEnrolment((a, b) => engine.compare(a, b), face, template).distance;
  const last = take.length - 1;
  const neutral = [take[0], take[last]].filter((face): face is FaceAnalysis => Boolean(face));
  switch (rule) {
    case 'neutral':
      return neutral.reduce((sum, face) => sum + compare(face), 0) / neutral.length;
    case 'all':
      return take.reduce((sum, face) => sum + compare(face), 0) / take.length;
    case 'first':
      return take[0] ? compare(take[0]) : Number.POSITIVE_INFINITY;
    case 'best-neutral':
      return Math.min(...neutral.map(compare));
  }
}

async function main(): Promise<void> {
  const engine = new FacePool({ inProcess: true });
  await engine.ready();
  const threshold = DEFAULT_FACE_MATCH_THRESHOLD;
  type Entry = { person: string; photo: string; takes: FaceAnalysis[][] };
  const entries: Entry[] = [];
  for (const photo of listFixtures('dev')) {
    const source = await loadSource(photo.path, engine);
    if (!source) continue;
    const takes: FaceAnalysis[][] = [];
    for (let seed = 1; seed <= TAKES_PER_PHOTO; seed++) {
      const take = await takeOf(engine, source, 100 + seed);
      if (take) takes.push(take);
    }
    entries.push({ person: photo.person, photo: photo.file, takes });
  }
  // Enrolments: the first take of each photo whose neutral pictures pass the gate.
  const enrolments = entries.flatMap((entry) => {
    const take = entry.takes[0];
    if (!take) return [];
    const neutral = [take[0], take[take.length - 1]].filter((f): f is FaceAnalysis => Boolean(f));
    if (!neutral.every((face) => checkEnrolmentCapture(face).ok)) return [];
    return [{ entry, template: neutral.map((face) => templateOf(face)) }];
  });
  console.log(
    `Decisão sobre a captura inteira, fotos dev: ${entries.length} fotos com rosto, ${enrolments.length} cadastros aceitos pelo portão, limiar ${threshold}`,
  );
  for (const rule of RULES) {
    const genuine: number[] = [];
    const impostor: number[] = [];
    for (const { entry, template } of enrolments) {
      for (const probe of entries) {
        if (probe.photo === entry.photo) continue;
        for (const take of probe.takes) {
          const d = distance(engine, rule, take, template);
          (probe.person === entry.person ? genuine : impostor).push(d);
        }
      }
    }
    const fnmr = genuine.filter((d) => d >= threshold).length;
    const fmr = impostor.filter((d) => d < threshold).length;
    const closest = Math.min(...impostor);
    console.log(
      `${rule.padEnd(13)} FNMR ${((100 * fnmr) / Math.max(1, genuine.length)).toFixed(1)}% (${fnmr}/${genuine.length})  FMR ${((100 * fmr) / Math.max(1, impostor.length)).toFixed(1)}% (${fmr}/${impostor.length})  impostor mais próximo ${closest.toFixed(3)}  genuíno mais distante ${Math.max(...genuine).toFixed(3)}`,
    );
  }
  await engine.close();
}

await main();
