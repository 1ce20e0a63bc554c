/**
 * The only door through which an uploaded face image enters the server.
 * The type is decided by the bytes, never by a name, a data-URL prefix or a
 * Content-Type, and every image is decoded and re-encoded, so whatever rides
 * along in the file (EXIF with GPS, an HTML or script polyglot, trailing
 * data) is left behind (ASVS 12.x, LGPD minimisation).
 */
import { errorCatalogue } from '@exame/shared';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '../lib/app-error';

export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_IMAGE_PIXELS = 16_000_000;
/** Longest side kept: far above what the detector needs, far below a pixel bomb. */
export const NORMALISED_MAX_SIDE = 1280;
const JPEG_QUALITY = 90;
/** A decode that takes longer than this is a crafted file, not a photo. */
const DECODE_TIMEOUT_SECONDS = 10;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export type ImageLimits = {
  maxBytes?: number;
  maxPixels?: number;
};

export type NormalisedImage = {
  /** Re-encoded baseline JPEG, auto-rotated, no metadata. */
  jpeg: Buffer;
  width: number;
  height: number;
  /** Format detected from the uploaded bytes. */
  sourceFormat: ImageFormat;
};

/**
 * The errors of the image intake (face captures and exam photos). Server-only:
 * no screen branches on these codes, the web shows the `Error` text as sent.
 * The size texts sent name the limit of the route (see below).
 */
export const IMAGE_ERRORS = errorCatalogue({
  IMAGE_INVALID: { status: 400, message: 'O arquivo enviado não é uma imagem válida.' },
  IMAGE_UNSUPPORTED_TYPE: {
    status: 415,
    message: 'Formato de imagem não suportado. Envie uma foto JPEG, PNG ou WebP.',
  },
  IMAGE_TOO_LARGE: { status: 413, message: 'A imagem é grande demais.' },
  IMAGE_TOO_MANY_PIXELS: { status: 413, message: 'A resolução da imagem é alta demais.' },
});

export function imageInvalid(): AppError {
  return AppError.from(IMAGE_ERRORS, 'IMAGE_INVALID');
}

function tooLarge(maxBytes: number): AppError {
  const mib = Math.floor((maxBytes / (1024 * 1024)) * 10) / 10;
  return AppError.from(
    IMAGE_ERRORS,
    'IMAGE_TOO_LARGE',
    `${IMAGE_ERRORS.IMAGE_TOO_LARGE.message} Envie uma imagem de até ${mib.toLocaleString('pt-BR')} MB.`,
  );
}

function tooManyPixels(maxPixels: number): AppError {
  const mp = Math.floor(maxPixels / 100_000) / 10;
  return AppError.from(
    IMAGE_ERRORS,
    'IMAGE_TOO_MANY_PIXELS',
    `${IMAGE_ERRORS.IMAGE_TOO_MANY_PIXELS.message} Envie uma imagem de até ${mp.toLocaleString('pt-BR')} megapixels.`,
  );
}

function unsupported(): AppError {
  return AppError.from(IMAGE_ERRORS, 'IMAGE_UNSUPPORTED_TYPE');
}

/** Magic numbers of the three accepted formats; anything else is refused. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => at(i) === b)) return 'png';
  const ascii = (from: number, to: number) =>
    Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Turns a base64 text into bytes without trusting it: the data-URL prefix
 * (whatever type it claims) is dropped, line breaks are tolerated, anything
 * else that is not base64 is refused rather than silently skipped as
 * Buffer.from would do, and the size is checked before decoding.
 */
function decodeBase64(text: string, maxBytes: number): Buffer {
  const comma = text.indexOf(',');
  const payload = (comma >= 0 ? text.slice(comma + 1) : text).replace(/\s+/g, '');
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload)) {
    throw imageInvalid();
  }
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if ((payload.length / 4) * 3 - padding > maxBytes) throw tooLarge(maxBytes);
  return Buffer.from(payload, 'base64');
}

type NormalisationObserver = (image: NormalisedImage) => void;
const observers = new Set<NormalisationObserver>();

/**
 * Test-only hook: `observer` is told of every picture this module has
 * decoded and re-encoded, so a test can count the passes a request makes
 * over each capture. Returns the function that removes it. Nothing in the
 * server observes.
 */
export function observeNormalisation(observer: NormalisationObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

function isPixelLimitError(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/**
 * Validates an uploaded image and returns a clean JPEG of at most
 * NORMALISED_MAX_SIDE pixels on the long side. Throws AppError with
 * IMAGE_INVALID, IMAGE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS or
 * IMAGE_UNSUPPORTED_TYPE.
 */
export async function validateAndNormalizeImage(
  input: Buffer | Uint8Array | string,
  limits: ImageLimits = {},
): Promise<NormalisedImage> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS;

  const bytes = typeof input === 'string' ? decodeBase64(input, maxBytes) : input;
  if (bytes.length === 0) throw imageInvalid();
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);

  const sourceFormat = detectImageFormat(bytes);
  if (!sourceFormat) throw unsupported();

  // One sharp instance for the whole intake: the header is read for the
  // checks below, then the same instance decodes and re-encodes, once.
  // failOn 'warning' makes libvips refuse truncated or damaged data instead
  // of returning a half-grey picture; limitInputPixels makes it refuse a
  // declared size over the cap from the header, before any pixel is decoded.
  const image = sharp(bytes, { failOn: 'warning', limitInputPixels: maxPixels, pages: 1 }).timeout({
    seconds: DECODE_TIMEOUT_SECONDS,
  });

  let metadata: Metadata;
  try {
    metadata = await image.metadata();
  } catch (error) {
    if (isPixelLimitError(error)) throw tooManyPixels(maxPixels);
    throw imageInvalid();
  }
  // The container must agree with the magic number (sharp sniffs on its own).
  if (metadata.format !== sourceFormat) throw unsupported();
  const { width, height } = metadata;
  if (!width || !height) throw imageInvalid();
  if (width * height > maxPixels) throw tooManyPixels(maxPixels);

  let normalised: NormalisedImage;
  try {
    const { data, info } = await image
      .autoOrient()
      .resize({
        width: NORMALISED_MAX_SIDE,
        height: NORMALISED_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:2:0' })
      .toBuffer({ resolveWithObject: true });
    normalised = { jpeg: data, width: info.width, height: info.height, sourceFormat };
  } catch (error) {
    if (isPixelLimitError(error)) throw tooManyPixels(maxPixels);
    throw imageInvalid();
  }
  for (const observer of observers) observer(normalised);
  return normalised;
}
