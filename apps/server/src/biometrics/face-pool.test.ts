import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { createFaceService, defaultThreadCount, FacePool } from './face-pool';
import { devPhoto, photoWithoutFace } from '../../test/faces/captures';
import { genuineTake } from '../../test/faces/synthetic-takes';
import { devSource } from '../../test/faces/takes';
import { checkTake } from './challenge-check';
import { faceEngineSkipReason } from '../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('face pool tests');

describe.skipIf(Boolean(skipReason))(`face worker pool ${skipReason}`.trim(), () => {
  let pool: FacePool;
  let engine: FacePool;

  beforeAll(async () => {
    // Two workers even on a small machine, so that two tasks really run at once.
    pool = new FacePool({ threads: 2 });
    engine = new FacePool({ inProcess: true });
    await Promise.all([pool.ready(), engine.ready()]);
  });

  afterAll(async () => {
    await pool?.close();
    await engine?.close();
  });

  it('defaults to one worker per core but one', () => {
    expect(defaultThreadCount()).toBeGreaterThanOrEqual(1);
    expect(pool.threads).toBe(2);
  });

  it('gives, for two verifications at once, the results of the in-process engine', async () => {
    const template = await engine.analyze(await devPhoto('p01-1.jpg'));
    const genuine = await devPhoto('p01-4.jpg');
    const impostor = await devPhoto('p03-1.jpg');

    const [poolGenuine, poolImpostor] = await Promise.all([
      pool.analyze(genuine),
      pool.analyze(impostor),
    ]);
    const localGenuine = await engine.analyze(genuine);
    const localImpostor = await engine.analyze(impostor);

    expect(poolGenuine.descriptor).toEqual(localGenuine.descriptor);
    expect(poolImpostor.descriptor).toEqual(localImpostor.descriptor);
    expect(pool.compare(template, poolGenuine)).toEqual(engine.compare(template, localGenuine));
    expect(pool.compare(template, poolImpostor)).toEqual(engine.compare(template, localImpostor));
    expect(pool.compare(template, poolGenuine).match).toBe(true);
    expect(pool.compare(template, poolImpostor).match).toBe(false);
  });

  it('brings the pt-BR errors back from the workers', async () => {
    const noFace = await photoWithoutFace('p01-1.jpg');
    await expect(pool.analyze(noFace)).rejects.toBeInstanceOf(AppError);
    await expect(pool.analyze(noFace)).rejects.toMatchObject({
      code: 'FACE_NOT_FOUND',
      status: 422,
    });
    await expect(pool.analyze(Buffer.from('lixo'))).rejects.toMatchObject({
      code: 'IMAGE_INVALID',
    });
  });

  it('leaves the caller buffer intact when sending it to a worker', async () => {
    const image = await devPhoto('p02-1.jpg');
    const copy = Buffer.from(image);
    await pool.analyze(image);
    expect(image.equals(copy)).toBe(true);
  });

  it('analyses a take spread over the workers as the in-process engine does, thumbnails included', async () => {
    const steps = ['down', 'left', 'up'] as const;
    const pictures = await genuineTake(await devSource(engine, 'p02-4.jpg'), steps);
    const fromPool = await Promise.all(pictures.map((picture) => pool.analyze(picture)));
    const inProcess = await Promise.all(pictures.map((picture) => engine.analyze(picture)));
    fromPool.forEach((face, i) => {
      expect(face.thumbnail).toBeInstanceOf(Uint8Array);
      expect(face.thumbnail).toEqual(inProcess[i]?.thumbnail);
    });
    // The challenge check reads analyses only: the same verdict from either.
    expect(checkTake(steps, fromPool)).toEqual(checkTake(steps, inProcess));
    expect(checkTake(steps, fromPool).passed).toBe(true);
  });

  it('starts nothing before first use, refuses a bad option at once and never starts once closed', async () => {
    expect(() => new FacePool({ threads: 0 })).toThrow(TypeError);
    expect(() => new FacePool({ matchThreshold: 0 })).toThrow(TypeError);
    const lazy = new FacePool({ threads: 1, matchThresholdByUnit: { DF: 0.5 } });
    // The version and thresholds are known before any worker exists.
    expect(lazy.descriptorVersion).toBe(pool.descriptorVersion);
    expect(lazy.thresholdFor('DF')).toBe(0.5);
    expect(lazy.thresholdFor('SP')).toBe(lazy.threshold);
    expect(lazy.queueSize()).toBe(0);
    await lazy.close();
    await expect(lazy.ready()).rejects.toMatchObject({ code: 'FACE_ENGINE_UNAVAILABLE' });
    expect(lazy.replaced).toBe(0);
  });

  it('answers FACE_ENGINE_UNAVAILABLE once closed', async () => {
    const service = await createFaceService({ threads: 1 });
    await service.close();
    await expect(service.analyze(await devPhoto('p01-1.jpg'))).rejects.toMatchObject({
      code: 'FACE_ENGINE_UNAVAILABLE',
      status: 503,
    });
  });
});
