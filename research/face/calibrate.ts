/**
 * Calibrates engine v1's threshold (face-api's 128-d descriptor alone,
 * FACE_API_ONLY_THRESHOLD) on fixtures/faces/dev ONLY. Engine v2 decides on
 * the fused distance, whose threshold (DEFAULT_FACE_MATCH_THRESHOLD) comes
 * from fusion-study.ts; this script stays for face-api's own scale:
 *
 *   npm run face:calibrate -w research
 *
 * Each photo goes through the production path (validateAndNormalizeImage,
 * then the engine with its quality gates); every pair of photos gives a
 * genuine or impostor distance. Prints the equal-error threshold and the
 * threshold for FMR <= 1%, whose value rounded down to two decimals is
 * FACE_API_ONLY_THRESHOLD. holdout/ is never read here: a threshold
 * tuned on it would make the benchmark's measurement meaningless.
 */
import fs from 'node:fs';
import { descriptorDistance } from '../../apps/server/src/biometrics/descriptor';
import {
  FACE_API_ONLY_THRESHOLD,
  type FaceAnalysis,
} from '../../apps/server/src/biometrics/face-engine';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import { validateAndNormalizeImage } from '../../apps/server/src/biometrics/image';
import { AppError } from '../../apps/server/src/lib/app-error';
import { fixtureDir, fixturePairs, listFixtures } from '../../apps/server/test/faces/fixtures';
import { equalErrorRate, ratesAt, thresholdForFmr } from './metrics';

const TARGET_FMR = 0.01;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const photos = listFixtures('dev');
  const engine = new FacePool({ inProcess: true });
  await engine.ready();

  const faces = new Map<string, FaceAnalysis>();
  const failures: string[] = [];
  for (const photo of photos) {
    try {
      const { jpeg } = await validateAndNormalizeImage(fs.readFileSync(photo.path));
      faces.set(photo.file, await engine.analyze(jpeg));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failures.push(`${photo.file}: ${error.code}`);
    }
  }

  const genuineAll: number[] = [];
  const impostorAll: number[] = [];
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (const { a, b, genuine: same } of fixturePairs(photos)) {
    const fa = faces.get(a.file);
    const fb = faces.get(b.file);
    const d =
      fa && fb ? descriptorDistance(fa.descriptor, fb.descriptor) : Number.POSITIVE_INFINITY;
    (same ? genuineAll : impostorAll).push(d);
    if (fa && fb) (same ? genuine : impostor).push(d);
  }

  const eer = equalErrorRate(genuine, impostor);
  const fmrThreshold = thresholdForFmr(impostor, TARGET_FMR);
  const recommended = Math.floor(fmrThreshold * 100) / 100;
  const atRecommended = ratesAt(genuine, impostor, recommended);
  const atDefault = ratesAt(genuine, impostor, FACE_API_ONLY_THRESHOLD);
  const systemAtRecommended = ratesAt(genuineAll, impostorAll, recommended);

  // Persons with several captures are the genuine subjects (p01, p02 on dev);
  // the quality gates must let every one of their photos through.
  const counts = new Map<string, number>();
  for (const p of photos) counts.set(p.person, (counts.get(p.person) ?? 0) + 1);
  const subjects = photos.filter((p) => (counts.get(p.person) ?? 0) > 1);
  const subjectFaces = subjects.flatMap((p) => faces.get(p.file) ?? []);
  const min = (pick: (f: FaceAnalysis) => number) =>
    subjectFaces.length ? Math.min(...subjectFaces.map(pick)) : Number.NaN;

  const sortedGenuine = [...genuine].sort((x, y) => x - y);
  const sortedImpostor = [...impostor].sort((x, y) => x - y);
  console.log(`Calibração em ${fixtureDir('dev')} (${photos.length} fotos)`);
  console.log(`  sem rosto utilizável: ${failures.length ? failures.join(', ') : 'nenhuma'}`);
  console.log(
    `  pares comparados: ${genuine.length} genuínos, ${impostor.length} impostores ` +
      `(de ${genuineAll.length} e ${impostorAll.length})`,
  );
  console.log(
    `  distâncias genuínas: ${sortedGenuine[0]?.toFixed(3)} .. ${sortedGenuine.at(-1)?.toFixed(3)}; ` +
      `impostoras: ${sortedImpostor[0]?.toFixed(3)} .. ${sortedImpostor.at(-1)?.toFixed(3)}`,
  );
  console.log(
    `  EER ${pct(eer.eer)} no limiar ${eer.threshold.toFixed(4)} ` +
      `(FNMR ${pct(eer.fnmr)}, FMR ${pct(eer.fmr)})`,
  );
  console.log(`  limiar para FMR <= ${pct(TARGET_FMR)}: ${fmrThreshold.toFixed(4)}`);
  console.log(
    `  recomendado (arredondado para baixo): ${recommended.toFixed(2)} -> ` +
      `FNMR ${pct(atRecommended.fnmr)}, FMR ${pct(atRecommended.fmr)}; ` +
      `contando falhas de aquisição: FNMR ${pct(systemAtRecommended.fnmr)}, FMR ${pct(systemAtRecommended.fmr)}`,
  );
  console.log(
    `  padrão atual FACE_API_ONLY_THRESHOLD=${FACE_API_ONLY_THRESHOLD}: ` +
      `FNMR ${pct(atDefault.fnmr)}, FMR ${pct(atDefault.fmr)}` +
      (recommended === FACE_API_ONLY_THRESHOLD ? ' (em dia)' : ' (DESATUALIZADO)'),
  );
  console.log(
    `  qualidade mínima das fotos de ${[...new Set(subjects.map((s) => s.person))].join(', ')}: ` +
      `tamanho ${min((f) => f.quality.faceSizePx).toFixed(0)} px, ` +
      `luminância ${min((f) => f.quality.luminance).toFixed(0)}, ` +
      `nitidez ${min((f) => f.quality.sharpness).toFixed(0)}`,
  );
  await engine.close();
}

await main();
