/**
 * Dev-only study behind the one-to-many search of possible proxy test-takers
 * (FRAUD_MATCH_THRESHOLD and EXAM_FACE_IMPOSTOR in
 * apps/server/src/config/fraud-threshold.ts, the rule of
 * apps/server/src/biometrics/exam-face.ts):
 *
 *   npm run face:fraud-study -w research
 *
 * Reads the dev photos ONLY and writes nothing. About a minute on 2 cores.
 *
 * 1. Every dev photo, normalised like an upload and analysed by the engine.
 * 2. Single photos: genuine and impostor fused distances (the 1:1 scale).
 * 3. Exam faces as examFaceOf makes them from two captures of one person
 *    (every pair of p01's and of p02's photos): same person against each
 *    other (genuine; pairs sharing a photo left out), and against every
 *    other person's single photo (impostor). The mean and sd of the impostor
 *    scores are EXAM_FACE_IMPOSTOR.
 * 4. For candidate thresholds: the share of genuine exam pairs found, the
 *    modelled false-match rate (a normal fitted to the impostor scores: the
 *    dev pairs cannot show one in a billion) and the false cases a day it
 *    implies at 200, 1 000 and 5 000 exams a day with the 180-day window.
 */
import { examFaceOf } from '../../apps/server/src/biometrics/exam-face';
import {
  faceDistance,
  templateOf,
  type FaceAnalysis,
} from '../../apps/server/src/biometrics/face-engine';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import {
  EXAM_FACE_IMPOSTOR,
  examFaceFalseMatchRate,
  expectedFalseCasesPerDay,
  FRAUD_MATCH_THRESHOLD,
  FRAUD_WINDOW_DAYS,
} from '../../apps/server/src/config/fraud-threshold';
import { AppError } from '../../apps/server/src/lib/app-error';
import { devPhoto } from '../../apps/server/test/faces/captures';
import { listFixtures } from '../../apps/server/test/faces/fixtures';

type Photo = { file: string; person: string; template: number[] };

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const sd = Math.sqrt(
    values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1),
  );
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    n: values.length,
    mean,
    sd,
    min: sorted[0] ?? NaN,
    median: at(0.5),
    p90: at(0.9),
    max: sorted.at(-1) ?? NaN,
  };
}

const line = (name: string, s: ReturnType<typeof stats>) =>
  console.log(
    `${name.padEnd(34)} n=${String(s.n).padStart(4)}  média ${s.mean.toFixed(3)}  dp ${s.sd.toFixed(3)}  ` +
      `mín ${s.min.toFixed(3)}  mediana ${s.median.toFixed(3)}  p90 ${s.p90.toFixed(3)}  máx ${s.max.toFixed(3)}`,
  );

const engine = new FacePool({ inProcess: true });
try {
  const photos: Photo[] = [];
  for (const fixture of listFixtures('dev')) {
    try {
      const face: FaceAnalysis = await engine.analyze(await devPhoto(fixture.file));
      photos.push({ file: fixture.file, person: fixture.person, template: templateOf(face) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      console.log(`${fixture.file}: sem rosto utilizável (${error.code}), fora do estudo`);
    }
  }

  const singleGenuine: number[] = [];
  const singleImpostor: number[] = [];
  photos.forEach((a, i) =>
    photos.slice(i + 1).forEach((b) => {
      (a.person === b.person ? singleGenuine : singleImpostor).push(
        faceDistance(a.template, b.template),
      );
    }),
  );
  line('fotos isoladas, mesma pessoa', stats(singleGenuine));
  line('fotos isoladas, pessoas diferentes', stats(singleImpostor));

  // Exam faces of two captures of one person (p01 and p02 have several photos).
  type ExamFace = { person: string; files: string[]; descriptor: number[] };
  const exams: ExamFace[] = [];
  for (const person of ['p01', 'p02']) {
    const own = photos.filter((photo) => photo.person === person);
    own.forEach((a, i) =>
      own.slice(i + 1).forEach((b) => {
        const face = examFaceOf([
          { id: a.file, descriptor: a.template },
          { id: b.file, descriptor: b.template },
        ]);
        if (face) exams.push({ person, files: [a.file, b.file], descriptor: face.descriptor });
      }),
    );
  }
  const genuine: number[] = [];
  const impostor: number[] = [];
  exams.forEach((a, i) =>
    exams.slice(i + 1).forEach((b) => {
      const shares = a.files.some((file) => b.files.includes(file));
      if (a.person === b.person && !shares) genuine.push(faceDistance(a.descriptor, b.descriptor));
      if (a.person !== b.person) impostor.push(faceDistance(a.descriptor, b.descriptor));
    }),
  );
  for (const exam of exams) {
    for (const photo of photos) {
      if (photo.person !== exam.person)
        impostor.push(faceDistance(exam.descriptor, photo.template));
    }
  }
  const impostorStats = stats(impostor);
  line('rostos de exame, mesma pessoa', stats(genuine));
  line('rostos de exame, pessoas diferentes', impostorStats);
  console.log(
    `normal ajustada aos impostores: média ${impostorStats.mean.toFixed(3)}, dp ${impostorStats.sd.toFixed(3)} ` +
      `(no código: ${EXAM_FACE_IMPOSTOR.mean}, ${EXAM_FACE_IMPOSTOR.sd})`,
  );

  console.log(
    '\nlimiar  achados(mesma pessoa)  taxa de falso par (modelo)  falsos casos/dia a 200 | 1 000 | 5 000 exames/dia',
  );
  for (const threshold of [0.36, 0.38, 0.4, 0.42, 0.43, 0.44, 0.45, 0.5]) {
    const found = genuine.filter((distance) => distance < threshold).length / genuine.length;
    const perDay = [200, 1000, 5000].map((examsPerDay) =>
      expectedFalseCasesPerDay({ threshold, examsPerDay, windowDays: FRAUD_WINDOW_DAYS }).toFixed(
        3,
      ),
    );
    console.log(
      `${threshold.toFixed(2)}${threshold === FRAUD_MATCH_THRESHOLD ? '*' : ' '}   ${(found * 100).toFixed(1).padStart(5)}%               ` +
        `${examFaceFalseMatchRate(threshold).toExponential(2).padStart(9)}                  ${perDay.join(' | ')}`,
    );
  }
  console.log(
    `* o limiar em uso (FRAUD_MATCH_THRESHOLD); impostor mais próximo em dev: ${impostorStats.min.toFixed(3)}`,
  );
} finally {
  await engine.close();
}
