/**
 * Webcam-like degradations of a fixture photo, shared by the fusion study
 * (fusion-study.ts) and the benchmark (bench/face.bench.ts), so that both
 * measure the same degraded captures: a small face on a 640x400 frame, a
 * blurred capture, an under-exposed one and a heavily compressed one. Each
 * returns JPEG bytes as a browser would upload them. Built at run time: no
 * derived image of a real face is ever written to disk.
 */
import sharp from 'sharp';

const GREY = { r: 128, g: 128, b: 128 };
const FRAME = { width: 640, height: 400 };

export type Degradation = { name: string; make: (photo: Buffer) => Promise<Buffer> };

/** The photo scaled by `factor`, centred on a 640x400 grey frame (what falls outside is cut off). */
async function smallOnFrame(photo: Buffer, factor: number): Promise<Buffer> {
  const meta = await sharp(photo).metadata();
  const width = Math.max(1, Math.round((meta.width ?? 0) * factor));
  const height = Math.max(1, Math.round((meta.height ?? 0) * factor));
  const scaled = await sharp(photo)
    .resize(Math.min(width, FRAME.width), Math.min(height, FRAME.height), { fit: 'cover' })
    .toBuffer({ resolveWithObject: true });
  return sharp({ create: { ...FRAME, channels: 3, background: GREY } })
    .composite([
      {
        input: scaled.data,
        left: Math.round((FRAME.width - scaled.info.width) / 2),
        top: Math.round((FRAME.height - scaled.info.height) / 2),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * The four degradations, each strong enough to move the descriptors (the
 * gates refuse some of these captures: a refusal is a failure to acquire,
 * counted apart), none so strong that most faces are lost.
 */
export const DEGRADATIONS: readonly Degradation[] = Object.freeze([
  // Dev faces are ~120-250 px across in the 640 px photos: ~40-75 px here.
  { name: 'small', make: (photo) => smallOnFrame(photo, 0.3) },
  { name: 'blur', make: (photo) => sharp(photo).blur(2).jpeg({ quality: 90 }).toBuffer() },
  // Pixels x 0.3: face luminance ~35-55, over the 30 gate, brightened before the descriptors.
  { name: 'dark', make: (photo) => sharp(photo).linear(0.3, 0).jpeg({ quality: 90 }).toBuffer() },
  { name: 'jpeg q10', make: (photo) => sharp(photo).jpeg({ quality: 10 }).toBuffer() },
]);
