/**
 * One face analysis with the wasm backend's `Concat` replaced
 * (biometrics/wasm-concat.mjs: face-api's colour planes joined value by
 * value) against the backend's own kernel, side by side in one thread:
 * rounds alternate between the two over every dev photo, and each photo's
 * descriptor must be the same with both.
 *
 *   npm run bench:face-kernels -w bench [-- --rounds 6]
 */
import fs from 'node:fs';
import { analyzeFace } from '../apps/server/src/biometrics/engine-core.mjs';
import { DEFAULT_FACE_CORE_OPTIONS } from '../apps/server/src/biometrics/face-engine';
import { loadFaceModels, tf } from '../apps/server/src/biometrics/face-runtime.mjs';
import { fixturePath, listFixtures } from '../apps/server/test/faces/fixtures';
import { argument, percentile } from './bench-support';

type KernelFunc = ((args: unknown) => unknown) & {
  narrowConcat?: boolean;
  backendKernel?: (args: unknown) => unknown;
};
type KernelConfig = { kernelName: string; backendName: string; kernelFunc: KernelFunc };
const tfjs = tf as {
  getKernel(name: string, backend: string): KernelConfig | undefined;
  unregisterKernel(name: string, backend: string): void;
  registerKernel(config: KernelConfig): void;
};

const ROUNDS = argument('rounds', 6);

await loadFaceModels(DEFAULT_FACE_CORE_OPTIONS.detectorInputSizes as number[]);
const narrow = tfjs.getKernel('Concat', 'wasm')!;
if (!narrow.kernelFunc.narrowConcat || !narrow.kernelFunc.backendKernel) {
  throw new Error('O Concat do motor não é o de fatias estreitas (wasm-concat.mjs).');
}
const variants = {
  'Concat do backend': { ...narrow, kernelFunc: narrow.kernelFunc.backendKernel },
  'Concat de fatias estreitas': narrow,
};
type Name = keyof typeof variants;

const photos = listFixtures('dev').map((photo) => ({
  file: photo.file,
  bytes: new Uint8Array(fs.readFileSync(fixturePath('dev', photo.file))),
}));

type Analysis = {
  ok: boolean;
  face?: { descriptor: number[]; mobileDescriptor: ArrayLike<number> };
};
const times: Record<Name, number[]> = { 'Concat do backend': [], 'Concat de fatias estreitas': [] };
const descriptors = new Map<string, string>();
let compared = 0;

for (let round = 0; round < ROUNDS; round++) {
  const order: Name[] =
    round % 2 === 0
      ? ['Concat do backend', 'Concat de fatias estreitas']
      : ['Concat de fatias estreitas', 'Concat do backend'];
  for (const name of order) {
    tfjs.unregisterKernel('Concat', 'wasm');
    tfjs.registerKernel(variants[name]);
    for (const photo of photos) {
      const started = performance.now();
      const result = (await analyzeFace(photo.bytes, DEFAULT_FACE_CORE_OPTIONS)) as Analysis;
      times[name].push(performance.now() - started);
      if (!result.ok || !result.face) continue;
      const print = [...result.face.descriptor, ...Array.from(result.face.mobileDescriptor)].join(
        ',',
      );
      const seen = descriptors.get(photo.file);
      if (seen === undefined) descriptors.set(photo.file, print);
      else if (seen !== print)
        throw new Error(`${photo.file}: descritores diferentes entre os kernels`);
      else compared += 1;
    }
  }
}
tfjs.unregisterKernel('Concat', 'wasm');
tfjs.registerKernel(narrow);

const summary = (name: Name) => {
  const sorted = [...times[name]].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
};
const before = summary('Concat do backend');
const after = summary('Concat de fatias estreitas');
console.log(
  `Análise facial de ${photos.length} fotos dev, ${ROUNDS} rodadas alternadas, uma thread:`,
);
for (const [name, s] of [
  ['Concat do backend', before],
  ['Concat de fatias estreitas', after],
] as const) {
  console.log(
    `  ${name.padEnd(28)} p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  (n=${s.n})`,
  );
}
console.log(
  `  razão p50: ${(before.p50 / after.p50).toFixed(2)}x; descritores iguais nos dois kernels: ${compared} comparações`,
);
