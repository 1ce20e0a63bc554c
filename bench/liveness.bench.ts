/**
 * `npm run bench:liveness -w bench`: presentation attacks against the face
 * check, side by side in one run with the burst check the product used
 * before the challenge.
 *
 * From every dev photo (in the repository) and every holdout photo (outside
 * it, FACE_FIXTURES_DIR/holdout; skipped with a note when absent) it makes,
 * with the test generator of apps/server/test/faces/synthetic-takes.ts:
 * - genuine takes: the head of the photo really turning as the challenge
 *   asks, as one continuous take with depth (a warp of the photo driven by a
 *   3-D head mesh; an attacker with such a generator could show the same:
 *   that attack is NOT in the attack set, and docs/biometrics.md says so);
 * - presentation attacks of the still photo: shifted, scaled, rotated,
 *   tilted in perspective and bent like a printed page (also turned the way
 *   the challenge asks), sheared, re-encoded, with brightness changes; a
 *   genuine take recorded for another challenge (replay); pictures cut
 *   together from different photos of one person (stitched); another
 *   person's face in the middle of a take.
 *
 * Each take is analysed by the real engine (a pool of one worker per core,
 * the pictures of a take at once) and judged by
 * - the challenge check (biometrics/challenge-check.ts) against the
 *   challenge it was made for, and
 * - the burst check of before (legacy-burst-check.ts, `evaluateBurst`, on
 *   the same pictures: it asked only for a little landmark motion and pixel
 *   change).
 * It prints APCER (attacks accepted) and BPCER (genuine takes refused) of
 * both, with their sample sizes, per split and per attack kind.
 *
 * `--study` prints every take's measures on dev only (the numbers the
 * limits of challenge-check.ts were chosen from); `--photos N` limits the
 * photos per split (a quick run); `--genuine N` genuine takes per photo (default 4).
 */
import { drawSteps } from '../apps/server/src/modules/face-enrolment/face-challenges.service';
import { checkTake, type TakeResult } from '../apps/server/src/biometrics/challenge-check';
import { measureEnrolmentCapture } from '../apps/server/src/biometrics/enrolment-gate';
import { templateOf } from '../apps/server/src/biometrics/descriptor';
import { analyzeTake } from '../apps/server/src/biometrics/face-captures';
import {
  createFaceService,
  defaultThreadCount,
  FacePool,
} from '../apps/server/src/biometrics/face-pool';
import { compareTake } from '../apps/server/src/modules/face-enrolment/face-takes.service';
import { percentile } from '../research/face/metrics';
import { type FaceAnalysis } from '../apps/server/src/biometrics/face-engine';
import { evaluateBurst } from './legacy-burst-check';
import { analyseCached } from '../apps/server/test/faces/cached-analysis';
import {
  fixtureDir,
  hasFaceFixtures,
  listFixtures,
  type FixtureSplit,
} from '../apps/server/test/faces/fixtures';
import {
  attackTakes,
  genuineTake,
  loadSource,
  otherFaceTake,
  stitchedTake,
  type FaceMove,
  type Source,
} from '../apps/server/test/faces/synthetic-takes';
import os from 'node:os';
import { argument } from './bench-support';

type Verdict = {
  kind: string;
  variant: string;
  genuine: boolean;
  now: TakeResult | null;
  before: boolean;
  why: string;
  first?: FaceAnalysis;
};

const study = process.argv.includes('--study');
const maxPhotos = argument('photos', 1000);
const genuinePerPhoto = argument('genuine', 4);

/** A seeded stand-in for crypto's randomInt, so runs are repeatable. */
function seededInt(seed: number): (max: number) => number {
  let state = seed >>> 0 || 1;
  return (max: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % max;
  };
}

async function analyseAll(
  engine: FacePool,
  pictures: readonly Buffer[],
): Promise<FaceAnalysis[] | string> {
  // All of a take's pictures at once: the pool's workers share them.
  const results = await Promise.all(pictures.map((picture) => analyseCached(engine, picture)));
  const faces: FaceAnalysis[] = [];
  for (const [index, result] of results.entries()) {
    if (typeof result === 'string') return `foto ${index + 1}: ${result}`;
    faces.push(result);
  }
  return faces;
}

function judge(
  engine: FacePool,
  steps: readonly FaceMove[],
  faces: FaceAnalysis[] | string,
): { now: TakeResult | null; before: boolean; why: string; first?: FaceAnalysis } {
  if (typeof faces === 'string') return { now: null, before: false, why: faces };
  const now = checkTake(steps, faces);
  let before = false;
  try {
    before = evaluateBurst(faces, engine.threshold).passed;
  } catch {
    before = false;
  }
  return { now, before, why: now.failure?.code ?? 'aceita', first: faces[0] };
}

function line(verdict: Verdict, name: string, steps: readonly FaceMove[]): string {
  const now = verdict.now;
  const poses = now
    ? now.details.poses
        .map((p) => `${p.yaw.toFixed(0)}/${p.pitch.toFixed(0)}/${p.fit.toFixed(2)}`)
        .join(' ')
    : '';
  const depth = now
    ? now.details.poses
        .map(
          (p) =>
            `${p.depthRelief.midline.yaw.toFixed(2)},${p.depthRelief.midline.pitch.toFixed(2)}|${p.depthRelief.lateral.yaw.toFixed(2)},${p.depthRelief.lateral.pitch.toFixed(2)}`,
        )
        .join(' ')
    : '';
  const scene = now ? now.details.sceneChange.map((d) => d.toFixed(1)).join(' ') : '';
  const first = verdict.first;
  const misfit = first ? measureEnrolmentCapture(first).shapeMisfit.toFixed(3) : '';
  const dist = now ? now.details.distances.map((d) => d.toFixed(2)).join(' ') : '';
  return `${name.padEnd(10)} ${verdict.kind.padEnd(12)} ${verdict.variant.padEnd(28)} ${steps.join(',').padEnd(16)} ${verdict.why.padEnd(28)} antes=${verdict.before ? 'aceita' : 'recusa'} poses[yaw/pitch/fit]=${poses} relevo[mY,mP|lY,lP]=${depth} cena=${scene} forma=${misfit} dist=${dist}`;
}

async function runSplit(engine: FacePool, split: FixtureSplit): Promise<Verdict[]> {
  const photos = listFixtures(split).slice(0, maxPhotos);
  const verdicts: Verdict[] = [];
  const sources: Source[] = [];
  let failures = 0;
  for (const photo of photos) {
    const source = await loadSource(photo.path, engine);
    if (!source) {
      failures += 1;
      console.log(`${photo.file}: sem rosto utilizável (falha de aquisição)`);
      continue;
    }
    sources.push(source);
  }
  console.log(`${split}: ${sources.length} fotos com rosto, ${failures} falhas de aquisição`);
  for (const [index, source] of sources.entries()) {
    const draw = seededInt(1000 + index);
    for (let g = 0; g < genuinePerPhoto; g++) {
      const steps = drawSteps(draw);
      const pictures = await genuineTake(source, steps, { seed: 10 + g });
      const verdict = {
        kind: 'genuína',
        variant: `semente ${10 + g}`,
        genuine: true,
        ...judge(engine, steps, await analyseAll(engine, pictures)),
      };
      verdicts.push(verdict);
      if (study) console.log(line(verdict, source.name, steps));
    }
    const steps = drawSteps(draw);
    for (const attack of await attackTakes(source, steps, { seed: 7 + index })) {
      const verdict = {
        kind: attack.kind,
        variant: attack.variant,
        genuine: false,
        ...judge(engine, steps, await analyseAll(engine, attack.pictures)),
      };
      verdicts.push(verdict);
      if (study) console.log(line(verdict, source.name, steps));
    }
    // Another person (not another photo of the same one): the first source of a different person.
    const person = (name: string) => name.split('-')[0] ?? name;
    const other = sources.find((candidate) => person(candidate.name) !== person(source.name));
    if (other) {
      const verdict = {
        kind: 'outro-rosto',
        variant: other.name,
        genuine: false,
        ...judge(
          engine,
          steps,
          await analyseAll(engine, await otherFaceTake(source, other, steps)),
        ),
      };
      verdicts.push(verdict);
      if (study) console.log(line(verdict, source.name, steps));
    }
  }
  // Cuts between different photos of one person.
  const byPerson = new Map<string, Source[]>();
  for (const source of sources) {
    const person = source.name.split('-')[0] ?? source.name;
    byPerson.set(person, [...(byPerson.get(person) ?? []), source]);
  }
  for (const [person, own] of byPerson) {
    if (own.length < 2) continue;
    for (let i = 0; i + 1 < own.length; i += 2) {
      const steps = drawSteps(seededInt(5000 + i));
      const verdict = {
        kind: 'emendada',
        variant: `${person} ${i}`,
        genuine: false,
        ...judge(
          engine,
          steps,
          await analyseAll(engine, await stitchedTake(own.slice(i, i + 2), steps)),
        ),
      };
      verdicts.push(verdict);
      if (study) console.log(line(verdict, person, steps));
    }
  }
  return verdicts;
}

function rate(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}% (${part}/${whole})`;
}

function report(split: string, verdicts: Verdict[]): void {
  const attacks = verdicts.filter((v) => !v.genuine);
  const genuine = verdicts.filter((v) => v.genuine);
  const passedNow = (v: Verdict) => v.now?.passed === true;
  console.log(`\n== ${split} ==`);
  console.log(`                    desafio (agora)        rajada (antes)`);
  console.log(
    `APCER (ataques aceitos)   ${rate(attacks.filter(passedNow).length, attacks.length).padEnd(22)} ${rate(attacks.filter((v) => v.before).length, attacks.length)}`,
  );
  console.log(
    `BPCER (genuínas recusadas) ${rate(genuine.filter((v) => !passedNow(v)).length, genuine.length).padEnd(21)} ${rate(genuine.filter((v) => !v.before).length, genuine.length)}`,
  );
  const kinds = [...new Set(attacks.map((v) => v.kind))];
  for (const kind of kinds) {
    const of = attacks.filter((v) => v.kind === kind);
    console.log(
      `  ${kind.padEnd(14)} agora ${rate(of.filter(passedNow).length, of.length).padEnd(18)} antes ${rate(of.filter((v) => v.before).length, of.length)}`,
    );
  }
  const refusedGenuine = genuine.filter((v) => !passedNow(v));
  const reasons = new Map<string, number>();
  for (const v of refusedGenuine) reasons.set(v.why, (reasons.get(v.why) ?? 0) + 1);
  if (reasons.size > 0)
    console.log(
      `  genuínas recusadas por: ${[...reasons].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    );
  const accepted = attacks.filter(passedNow);
  for (const v of accepted) console.log(`  ATAQUE ACEITO: ${v.kind} ${v.variant}`);
}

/**
 * The whole check as the server runs it, timed: the take's pictures
 * normalised and analysed through the worker pool of the server's default
 * size (analyzeTake), the challenge check and the decision against an
 * enrolment, on genuine takes of dev photos, one verification at a time.
 */
async function latency(): Promise<void> {
  const pool = await createFaceService({});
  const engine = new FacePool({ inProcess: true });
  await engine.ready();
  const times: number[] = [];
  try {
    const photos = listFixtures('dev');
    for (let round = 0; times.length < 20 && round < 4; round++) {
      for (const photo of photos) {
        if (times.length >= 20) break;
        const source = await loadSource(photo.path, engine);
        if (!source) continue;
        const steps = drawSteps(seededInt(9000 + times.length));
        const pictures = (await genuineTake(source, steps, { seed: 50 + round })).map((p) =>
          p.toString('base64'),
        );
        const enrolled = [
          templateOf(
            await engine.analyze(
              await genuineTake(source, ['left', 'up'], { seed: 99 }).then(
                (t) => t[0] ?? Buffer.alloc(0),
              ),
            ),
          ),
        ];
        const started = performance.now();
        try {
          const captures = await analyzeTake(pool, pictures);
          const check = checkTake(
            steps,
            captures.map((c) => c.analysis),
          );
          if (check.passed) {
            compareTake((a, b) => pool.compare(a, b), { captures }, enrolled);
          }
        } catch {
          // A take the engine refuses still counts: the person waited for the answer.
        }
        times.push(performance.now() - started);
      }
    }
  } finally {
    await pool.close();
    await engine.close();
  }
  const p = (q: number) => percentile(times, q).toFixed(0);
  console.log(
    `\nTempo da verificação inteira (análise no pool de ${defaultThreadCount()} worker(s), desafio, decisão), ${times.length} capturas de 4 ou 5 fotos: p50 ${p(50)} ms, p95 ${p(95)} ms, máx ${Math.max(...times).toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--latency')) {
    await latency();
    return;
  }
  // One worker per core: between takes this thread only generates the next one.
  const engine = await createFaceService({ threads: os.availableParallelism() });
  const started = performance.now();
  // --warm-holdout fills LIVENESS_CACHE with holdout analyses and prints nothing of them.
  if (process.argv.includes('--warm-holdout')) {
    await runSplit(engine, 'holdout');
    await engine.close();
    return;
  }
  const dev = await runSplit(engine, 'dev');
  report('dev (no repositório; limites escolhidos aqui)', dev);
  if (!study) {
    if (hasFaceFixtures('holdout')) {
      report('holdout (só medido)', await runSplit(engine, 'holdout'));
    } else {
      console.log(`\nholdout ausente em ${fixtureDir('holdout')}: só dev medido.`);
    }
  }
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
  await engine.close();
  if (!study) await latency();
}

await main();
