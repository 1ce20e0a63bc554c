/**
 * Test captures built from the dev fixture photos at run time. The dev photos
 * themselves are committed test data (faces/dev, with their attribution in its
 * README); the captures derived from them (crops, bursts, edits) are made here
 * on each run and never stored, so the repository holds only the originals
 * under their licence.
 */
import fs from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { validateAndNormalizeImage } from '../../src/biometrics/image';
import { fixturePath } from './fixtures';

const CAPTURE_WIDTH = 640;
const CAPTURE_HEIGHT = 400;
const GREY = { r: 128, g: 128, b: 128 };

/** A dev photo as the upload path would hand it to the engine. */
export async function devPhoto(file: string): Promise<Buffer> {
  return (await validateAndNormalizeImage(fs.readFileSync(fixturePath('dev', file)))).jpeg;
}

/** A dev photo transformed by `edit`, then normalised like an upload. */
export async function editedDevPhoto(file: string, edit: (image: Sharp) => Sharp): Promise<Buffer> {
  const edited = await edit(sharp(fixturePath('dev', file)))
    .jpeg({ quality: 90 })
    .toBuffer();
  return (await validateAndNormalizeImage(edited)).jpeg;
}

/**
 * A 640x400 webcam-like frame: the photo scaled to the frame's height on a
 * wider grey backdrop, seen through a window moved by (dx, dy), each within
 * +-40 px of the centre. Moving the
 * window between frames is a real translation of the scene, with no
 * resampling that would blur one frame more than another.
 */
export async function webcamFrame(file: string, dx = 0, dy = 0): Promise<Buffer> {
  const margin = 80;
  const photo = await sharp(fixturePath('dev', file))
    .resize({ height: CAPTURE_HEIGHT + margin })
    .toBuffer({ resolveWithObject: true });
  const backdropWidth = CAPTURE_WIDTH + margin;
  const scene = await sharp({
    create: {
      width: backdropWidth,
      height: CAPTURE_HEIGHT + margin,
      channels: 3,
      background: GREY,
    },
  })
    .composite([
      { input: photo.data, left: Math.round((backdropWidth - photo.info.width) / 2), top: 0 },
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(scene.data, { raw: scene.info })
    .extract({
      left: margin / 2 + dx,
      top: margin / 2 + dy,
      width: CAPTURE_WIDTH,
      height: CAPTURE_HEIGHT,
    })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Two dev photos side by side: a capture with two people in it. */
export async function sideBySide(left: string, right: string): Promise<Buffer> {
  const height = 640;
  const a = await sharp(fixturePath('dev', left)).resize({ height }).toBuffer({
    resolveWithObject: true,
  });
  const b = await sharp(fixturePath('dev', right)).resize({ height }).toBuffer({
    resolveWithObject: true,
  });
  const composed = await sharp({
    create: { width: a.info.width + b.info.width, height, channels: 3, background: GREY },
  })
    .composite([
      { input: a.data, left: 0, top: 0 },
      { input: b.data, left: a.info.width, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
  return (await validateAndNormalizeImage(composed)).jpeg;
}

/** A dev photo shrunk to `width` pixels and pasted on a 640x400 grey frame. */
export async function distantFace(file: string, width: number): Promise<Buffer> {
  const small = await sharp(fixturePath('dev', file)).resize({ width }).toBuffer();
  return sharp({
    create: { width: CAPTURE_WIDTH, height: CAPTURE_HEIGHT, channels: 3, background: GREY },
  })
    .composite([{ input: small, left: (CAPTURE_WIDTH - width) / 2, top: 100 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The lower 40% of a portrait: shirt and background, no face. */
export async function photoWithoutFace(file: string): Promise<Buffer> {
  const meta = await sharp(fixturePath('dev', file)).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const top = Math.round(height * 0.6);
  return editedDevPhoto(file, (image) =>
    image.extract({ left: 0, top, width, height: height - top }),
  );
}

/**
 * A burst as the capture modal takes it: the picture itself, then two frames
 * of the same scene moved by a few pixels (a person holding still is never
 * perfectly still). Sent as `image` = the first, `frames` = the others.
 */
export async function burstAround(jpeg: Buffer): Promise<Buffer[]> {
  const { width = 0, height = 0 } = await sharp(jpeg).metadata();
  const moved = (dx: number, dy: number) =>
    sharp(jpeg)
      .extend({ top: dy, left: dx, background: GREY })
      .extract({ left: 0, top: 0, width, height })
      .jpeg({ quality: 90 })
      .toBuffer();
  return [jpeg, await moved(6, 3), await moved(12, 5)];
}
