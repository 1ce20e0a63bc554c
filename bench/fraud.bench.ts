/**
 * The one-to-many face search of "Possíveis fraudes" (biometrics/face-index.ts),
 * three ways side by side in one run over 10 000, 100 000 and 1 000 000
 * synthetic exam faces: the scan FaceIndex does up to EXACT_SEARCH_UP_TO
 * faces (every face read, most impostors ruled out on part of face-api's
 * numbers), the HNSW graph (hnswlib) with its exact re-rank that it builds
 * past that, and the plain brute force (exactSearch, every entry's
 * faceDistance) as the reference; then the false cases a day the threshold
 * implies (config/fraud-threshold.ts).
 *
 *   npm run bench:fraud -w bench [-- --sizes=10000,100000 --queries 200 --exact-queries 40]
 *
 * The synthetic faces are built so that the fused distance sees them as it
 * sees real exam faces (impostor exam faces mean ~0.96, sd ~0.09, as
 * EXAM_FACE_IMPOSTOR; same person ~0.3): each identity is
 * a point of a 60-dimensional latent face that both models see (face-api's
 * 128 numbers and MobileFaceNet's 192, the latter around a direction common
 * to every face), plus a residual of its own; each exam adds noise whose
 * scale varies from exam to exam (capture quality). The calibration measured
 * on a sample is printed. Some identities take three exams each (the proxy
 * test-taker), so the recall has something to find.
 *
 * Per size: build time of the index, memory (RSS and JS heap+buffers growth
 * over the build), query time p50/p95 of FaceIndex.search and exactSearch,
 * and the recall of FaceIndex.search against exactSearch: (a) every entry
 * under FRAUD_MATCH_THRESHOLD, on queries from the planted exams; (b) the 10
 * nearest under 0.69, on random exams. exactSearch is slow at 1 000 000
 * (about a second a query), so it runs on `--exact-queries` queries of each
 * kind there (all of them at the smaller sizes); the HNSW side runs on all.
 */
import { performance } from 'node:perf_hooks';
import {
  EXAM_FACE_IMPOSTOR,
  FRAUD_MATCH_THRESHOLD,
  FRAUD_WINDOW_DAYS,
  expectedFalseCasesPerDay,
} from '../apps/server/src/config/fraud-threshold';
import { DESCRIPTOR_LENGTH, faceDistance } from '../apps/server/src/biometrics/descriptor';
import {
  exactSearch,
  FaceIndex,
  type FaceIndexHit,
  type FaceIndexOptions,
} from '../apps/server/src/biometrics/face-index';
import { createRandom } from '../apps/server/test/faces/mesh-warp';
import { argument, percentile } from './bench-support';

function sizesArgument(): number[] {
  const inline = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length);
  const index = process.argv.indexOf('--sizes');
  const text = inline ?? (index >= 0 ? process.argv[index + 1] : undefined);
  const sizes = (text ?? '10000,100000,1000000').split(',').map(Number);
  return sizes.filter((n) => Number.isInteger(n) && n >= 1000);
}

const SIZES = sizesArgument();
const QUERIES = argument('queries', 200);
const EXACT_QUERIES_LARGE = argument('exact-queries', 40);
const LOOSE = 0.69;
/**
 * FaceIndex's defaults (m 32, efConstruction 128, efSearch 256, 64 candidates)
 * up to 100 000 faces: with m 16 / efConstruction 64 the graph missed 12 of
 * 340 entries under the threshold at 100 000. At 1 000 000 the build is
 * single-threaded (one addPoint at a time): the defaults would take about an
 * hour on this shared 2-core machine (~400 insertions/s at 100 000), so that
 * size uses m 12 / efConstruction 40 (~9 minutes; printed in the table).
 */
const DEFAULTS: FaceIndexOptions = { m: 32, efConstruction: 128, efSearch: 256, candidates: 64 };
const indexOptions = (size: number): FaceIndexOptions =>
  size >= 1_000_000 ? { ...DEFAULTS, m: 12, efConstruction: 40 } : DEFAULTS;

// The generator (seeded): see the header. Calibrated by hand against the dev figures.
const LATENT = 60;
const FACE_API = { latent: 0.036, residual: 0.013, noise: 0.0155 };
const MOBILE = { common: 0.46, latent: 0.066, residual: 0.022, noise: 0.03 };
const QUALITY_SPREAD = 0.38;

class Faces {
  private readonly random: () => number;
  private spare: number | undefined;
  private readonly common = new Float64Array(192);
  private readonly z = new Float64Array(LATENT);

  constructor(seed: number) {
    this.random = createRandom(seed);
    const direction = new Mulberry(createRandom(1));
    let norm = 0;
    for (let j = 0; j < 192; j++) norm += (this.common[j] = direction.normal()) ** 2;
    for (let j = 0; j < 192; j++)
      this.common[j] = (this.common[j]! / Math.sqrt(norm)) * MOBILE.common;
  }

  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    const r = Math.sqrt(-2 * Math.log(1 - this.random()));
    const angle = 2 * Math.PI * this.random();
    this.spare = r * Math.sin(angle);
    return r * Math.cos(angle);
  }

  /** An identity's centre, written into `out` (DESCRIPTOR_LENGTH numbers). */
  identity(out: Float32Array | Float64Array): void {
    for (let l = 0; l < LATENT; l++) this.z[l] = this.normal();
    for (let i = 0; i < 128; i++)
      out[i] = FACE_API.latent * this.z[i % LATENT]! + FACE_API.residual * this.normal();
    for (let j = 0; j < 192; j++)
      out[128 + j] =
        this.common[j]! +
        MOBILE.latent * this.z[(j * 7 + 3) % LATENT]! +
        MOBILE.residual * this.normal();
  }

  /** One exam face of the identity `centre`, written into `out`. */
  exam(centre: ArrayLike<number>, out: Float32Array): void {
    const quality = Math.exp(QUALITY_SPREAD * this.normal());
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++)
      out[i] = centre[i]! + (i < 128 ? FACE_API.noise : MOBILE.noise) * quality * this.normal();
  }
}

/** A seeded normal source apart from the faces' (the common direction). */
class Mulberry {
  constructor(private readonly random: () => number) {}
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
  }
}

type Dataset = {
  size: number;
  faces: Float32Array;
  template: (i: number) => Float32Array;
  /** The planted identities: three exam numbers each. */
  groups: number[][];
};

function dataset(size: number, seed: number): Dataset {
  const generator = new Faces(seed);
  const random = createRandom(seed + 1);
  const faces = new Float32Array(size * DESCRIPTOR_LENGTH);
  const template = (i: number) =>
    faces.subarray(i * DESCRIPTOR_LENGTH, (i + 1) * DESCRIPTOR_LENGTH);
  // Exams of planted identities at random places: a partial Fisher-Yates.
  const order = new Uint32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  const planted = Math.min(1000, Math.floor(size / 30));
  for (let i = 0; i < planted * 3; i++) {
    const j = i + Math.floor(random() * (size - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const groups: number[][] = [];
  const centre = new Float64Array(DESCRIPTOR_LENGTH);
  const inGroup = new Uint8Array(size);
  for (let g = 0; g < planted; g++) {
    const members = [order[3 * g]!, order[3 * g + 1]!, order[3 * g + 2]!];
    generator.identity(centre);
    for (const exam of members) {
      generator.exam(centre, template(exam));
      inGroup[exam] = 1;
    }
    groups.push(members);
  }
  for (let i = 0; i < size; i++) {
    if (inGroup[i]) continue;
    generator.identity(centre);
    generator.exam(centre, template(i));
  }
  return { size, faces, template, groups };
}

function calibration(): string {
  const generator = new Faces(99);
  const a = new Float64Array(DESCRIPTOR_LENGTH);
  const b = new Float64Array(DESCRIPTOR_LENGTH);
  const x = new Float32Array(DESCRIPTOR_LENGTH);
  const y = new Float32Array(DESCRIPTOR_LENGTH);
  const impostor: number[] = [];
  const genuine: number[] = [];
  for (let n = 0; n < 5000; n++) {
    generator.identity(a);
    generator.identity(b);
    generator.exam(a, x);
    generator.exam(b, y);
    impostor.push(faceDistance(x, y));
    generator.exam(a, y);
    genuine.push(faceDistance(x, y));
  }
  const describe = (values: number[]) => {
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    const sorted = [...values].sort((p, q) => p - q);
    return `média ${mean.toFixed(3)}, dp ${sd.toFixed(3)}, mediana ${percentile(sorted, 50).toFixed(3)}, menor ${sorted[0]!.toFixed(3)}, maior ${sorted.at(-1)!.toFixed(3)}`;
  };
  const under = genuine.filter((d) => d < FRAUD_MATCH_THRESHOLD).length / genuine.length;
  return (
    `Calibração (5 000 pares de rostos de exame sintéticos):\n` +
    `  pessoas diferentes: ${describe(impostor)}   (modelo de dev: média ${EXAM_FACE_IMPOSTOR.mean}, dp ${EXAM_FACE_IMPOSTOR.sd})\n` +
    `  mesma pessoa:       ${describe(genuine)}   (alvo: ~0.3, capturas de uma sessão)\n` +
    `  mesma pessoa abaixo de ${FRAUD_MATCH_THRESHOLD}: ${(100 * under).toFixed(1)}%`
  );
}

function recall(found: FaceIndexHit[], expected: FaceIndexHit[]): [number, number] {
  const keys = new Set(found.map((hit) => hit.key));
  return [expected.filter((hit) => keys.has(hit.key)).length, expected.length];
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 0);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

type Row = Record<string, string | number>;
const rows: Row[] = [];
console.log(calibration());
console.log(
  `\nÍndice: HNSW (hnswlib-node), efSearch ${DEFAULTS.efSearch}, ${DEFAULTS.candidates} candidatos ` +
    `para a reordenação exata; m/efConstruction por tamanho na tabela; ` +
    `${QUERIES} consultas de cada tipo (exatas: todas até 100 000, ${EXACT_QUERIES_LARGE} acima).`,
);

for (const size of SIZES) {
  const startedGenerating = performance.now();
  const data = dataset(size, size);
  const keyOf = (i: number) => `exam-${i}`;
  const entries: Array<readonly [string, Float32Array]> = [];
  for (let i = 0; i < size; i++) entries.push([keyOf(i), data.template(i)]);
  console.log(
    `\n${size.toLocaleString('pt-BR')} rostos gerados em ${((performance.now() - startedGenerating) / 1000).toFixed(1)} s; construindo o índice...`,
  );

  gc();
  const before = process.memoryUsage();
  const startedBuilding = performance.now();
  const settings = indexOptions(size);
  // The graph from the first face, whatever the size (exactUpTo 0).
  const index = new FaceIndex({ ...settings, exactUpTo: 0 });
  for (let i = 0; i < size; i++) {
    index.upsert(keyOf(i), data.template(i));
    if (size >= 1_000_000 && (i + 1) % 100_000 === 0)
      console.log(`  ${i + 1} em ${((performance.now() - startedBuilding) / 1000).toFixed(0)} s`);
  }
  const buildSeconds = (performance.now() - startedBuilding) / 1000;
  gc();
  const after = process.memoryUsage();
  // The scan: the same faces, no graph (the product's search up to EXACT_SEARCH_UP_TO).
  const startedLoading = performance.now();
  const scanning = new FaceIndex({ exactUpTo: Number.POSITIVE_INFINITY });
  for (let i = 0; i < size; i++) scanning.upsert(keyOf(i), data.template(i));
  const loadSeconds = (performance.now() - startedLoading) / 1000;
  const scanTimes: number[] = [];
  let scanSame = 0;

  const random = createRandom(size + 2);
  const exactCount = size > 100_000 ? Math.min(QUERIES, EXACT_QUERIES_LARGE) : QUERIES;
  const annTimes: number[] = [];
  const exactTimes: number[] = [];
  const planted: [number, number] = [0, 0];
  const nearest: [number, number] = [0, 0];
  const plantedQueries = Array.from(
    { length: Math.min(QUERIES, data.groups.length) },
    (_, q) => data.groups[Math.floor((q * data.groups.length) / QUERIES)]![q % 3]!,
  );
  const randomQueries = Array.from({ length: QUERIES }, () => Math.floor(random() * size));
  for (const [kind, queries] of [
    ['planted', plantedQueries],
    ['nearest', randomQueries],
  ] as const) {
    queries.forEach((exam, q) => {
      const own = keyOf(exam);
      const options =
        kind === 'planted'
          ? { maxDistance: FRAUD_MATCH_THRESHOLD, limit: 20, exclude: (key: string) => key === own }
          : { maxDistance: LOOSE, limit: 10, exclude: (key: string) => key === own };
      const started = performance.now();
      const found = index.search(data.template(exam), options);
      annTimes.push(performance.now() - started);
      const scanStarted = performance.now();
      const scanned = scanning.search(data.template(exam), options);
      // The product searches at the threshold only: timed there.
      if (kind === 'planted') scanTimes.push(performance.now() - scanStarted);
      if (q >= exactCount) return;
      const exactStarted = performance.now();
      const expected = exactSearch(entries, data.template(exam), options);
      exactTimes.push(performance.now() - exactStarted);
      if (JSON.stringify(scanned) === JSON.stringify(expected)) scanSame += 1;
      const [hit, all] = recall(found, expected);
      const total = kind === 'planted' ? planted : nearest;
      total[0] += hit;
      total[1] += all;
    });
  }
  annTimes.sort((a, b) => a - b);
  exactTimes.sort((a, b) => a - b);
  scanTimes.sort((a, b) => a - b);
  const annP50 = percentile(annTimes, 50);
  const exactP50 = percentile(exactTimes, 50);
  rows.push({
    rostos: size.toLocaleString('pt-BR'),
    'm/efC': `${settings.m}/${settings.efConstruction}`,
    'construção s': buildSeconds.toFixed(1),
    'inserções/s': Math.round(size / buildSeconds),
    'RSS +MB': mb(after.rss - before.rss),
    'heap+buffers +MB': mb(
      after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers,
    ),
    'HNSW p50 ms': ms(annP50),
    'HNSW p95 ms': ms(percentile(annTimes, 95)),
    'exata p50 ms': ms(exactP50),
    'exata p95 ms': ms(percentile(exactTimes, 95)),
    'exata/HNSW': (exactP50 / annP50).toFixed(0),
    'carga da varredura s': loadSeconds.toFixed(1),
    'varredura p50 ms (limiar)': ms(percentile(scanTimes, 50)),
    'varredura p95 ms (limiar)': ms(percentile(scanTimes, 95)),
    'varredura = exata': `${scanSame}/${exactTimes.length}`,
    [`recall <${FRAUD_MATCH_THRESHOLD}`]: `${planted[0]}/${planted[1]}`,
    [`recall@10 <${LOOSE}`]: `${nearest[0]}/${nearest[1]}`,
    'consultas exatas': exactTimes.length,
  });
  console.table([rows.at(-1)]);
}

console.log(
  '\nResumo (tempos por consulta; recall = achados pelo HNSW / achados pela busca exata; ' +
    '"varredura = exata": consultas em que a varredura deu as mesmas respostas que a busca exata):',
);
console.table(rows);

const volumes = [200, 1000, 5000];
console.log(
  `\nFalsos casos esperados por dia (modelo normal dos impostores, janela de ${FRAUD_WINDOW_DAYS} dias):`,
);
console.table(
  [...new Set([0.36, FRAUD_MATCH_THRESHOLD, 0.45])]
    .sort((a, b) => a - b)
    .map((threshold) => ({
      limiar:
        threshold === FRAUD_MATCH_THRESHOLD ? `${threshold} (FRAUD_MATCH_THRESHOLD)` : threshold,
      ...Object.fromEntries(
        volumes.map((examsPerDay) => [
          `${examsPerDay} exames/dia`,
          expectedFalseCasesPerDay({
            threshold,
            examsPerDay,
            windowDays: FRAUD_WINDOW_DAYS,
          }).toPrecision(2),
        ]),
      ),
    })),
);
