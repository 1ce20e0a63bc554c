/**
 * One process of `bench:face-queue`'s ceiling: the dev photos analysed
 * ROUNDS times by a face pool of one thread, as a `face:worker` has, with no
 * queue, database or file store. Prints `{ "photos": n, "ms": elapsed }`
 * (after one warm-up pass). Run as `node --import tsx face-analysis-process.ts`.
 */
import fs from 'node:fs';
import { createFaceService } from '../apps/server/src/biometrics/face-pool';
import { listFixtures } from '../apps/server/test/faces/fixtures';

const rounds = Number(process.env.ROUNDS ?? '3');
const face = await createFaceService({ threads: 1 });
const photos = listFixtures('dev').map((photo) => fs.readFileSync(photo.path));
const analyseAll = async () => {
  for (const photo of photos) await face.analyze(photo).catch(() => undefined);
};
await analyseAll();
const started = performance.now();
for (let round = 0; round < rounds; round += 1) await analyseAll();
console.log(
  JSON.stringify({ photos: photos.length * rounds, ms: Math.round(performance.now() - started) }),
);
await face.close();
