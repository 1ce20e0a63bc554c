import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { detectImageFormat, validateAndNormalizeImage } from './image';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 180, g: 120, b: 90 } } });
}

/** A photo-like JPEG: noise keeps the encoder from shrinking it to nothing. */
async function noisyJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid, tiny PNG whose header declares width x height: a few hundred
 * bytes that would need gigabytes once decoded.
 */
function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const firstRows = deflateSync(Buffer.alloc((width * 3 + 1) * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', firstRows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('validateAndNormalizeImage', () => {
  it('re-encodes a JPEG and reports the format found in the bytes', async () => {
    const out = await validateAndNormalizeImage(await noisyJpeg(320, 200));
    expect(out.sourceFormat).toBe('jpeg');
    expect(detectImageFormat(out.jpeg)).toBe('jpeg');
    expect([out.width, out.height]).toEqual([320, 200]);
  });

  it('accepts base64 with or without a data-URL prefix, whatever type the prefix claims', async () => {
    const png = await solid(64, 48).png().toBuffer();
    const plain = await validateAndNormalizeImage(png.toString('base64'));
    const jpegPrefix = await validateAndNormalizeImage(
      `data:image/jpeg;base64,${png.toString('base64')}`,
    );
    const wrapped = await validateAndNormalizeImage(
      `data:image/png;base64,${png.toString('base64').replace(/(.{60})/g, '$1\n')}`,
    );
    for (const out of [plain, jpegPrefix, wrapped]) {
      expect(out.sourceFormat).toBe('png');
      expect(detectImageFormat(out.jpeg)).toBe('jpeg');
      expect([out.width, out.height]).toEqual([64, 48]);
    }
  });

  it('accepts WebP and flattens transparency', async () => {
    const webp = await sharp({
      create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .webp()
      .toBuffer();
    const out = await validateAndNormalizeImage(webp);
    expect(out.sourceFormat).toBe('webp');
    const meta = await sharp(out.jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.hasAlpha).toBe(false);
  });

  it('applies the EXIF orientation, then drops all metadata', async () => {
    const rotated = await solid(200, 100)
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'GPS e dados pessoais' } } })
      .toBuffer();
    expect((await sharp(rotated).metadata()).orientation).toBe(6);
    const out = await validateAndNormalizeImage(rotated);
    expect([out.width, out.height]).toEqual([100, 200]);
    const meta = await sharp(out.jpeg).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(out.jpeg.includes(Buffer.from('GPS e dados pessoais'))).toBe(false);
  });

  it('downscales to at most 1280 px on the long side, never upscales', async () => {
    const big = await validateAndNormalizeImage(await solid(3000, 2000).png().toBuffer());
    expect([big.width, big.height]).toEqual([1280, 853]);
    const small = await validateAndNormalizeImage(await solid(30, 20).png().toBuffer());
    expect([small.width, small.height]).toEqual([30, 20]);
  });

  it('refuses random bytes', async () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
    expect((await rejection(validateAndNormalizeImage(random))).code).toBe(
      'IMAGE_UNSUPPORTED_TYPE',
    );
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), random]);
    const error = await rejection(validateAndNormalizeImage(fakeJpeg));
    expect(error.code).toBe('IMAGE_INVALID');
    expect(error.message).toBe('O arquivo enviado não é uma imagem válida.');
    expect(error.status).toBe(400);
  });

  it('refuses a truncated JPEG', async () => {
    const jpeg = await noisyJpeg(400, 300);
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    expect((await rejection(validateAndNormalizeImage(truncated))).code).toBe('IMAGE_INVALID');
  });

  it('refuses empty input and text that is not base64', async () => {
    expect((await rejection(validateAndNormalizeImage(Buffer.alloc(0)))).code).toBe(
      'IMAGE_INVALID',
    );
    expect((await rejection(validateAndNormalizeImage(''))).code).toBe('IMAGE_INVALID');
    expect((await rejection(validateAndNormalizeImage('data:image/jpeg;base64,'))).code).toBe(
      'IMAGE_INVALID',
    );
    expect((await rejection(validateAndNormalizeImage('/9j/<script>alert(1)</script>'))).code).toBe(
      'IMAGE_INVALID',
    );
  });

  it('refuses an oversize file, as bytes or as base64, before decoding it', async () => {
    const jpeg = await noisyJpeg(64, 64);
    const oversize = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024)]);
    const error = await rejection(validateAndNormalizeImage(oversize));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/5 MB/);
    expect((await rejection(validateAndNormalizeImage(oversize.toString('base64')))).code).toBe(
      'IMAGE_TOO_LARGE',
    );
    expect(
      (await rejection(validateAndNormalizeImage(jpeg, { maxBytes: jpeg.length - 1 }))).code,
    ).toBe('IMAGE_TOO_LARGE');
  });

  it('refuses a pixel bomb from its header, without decoding it', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2_000);
    const started = performance.now();
    const error = await rejection(validateAndNormalizeImage(bomb));
    expect(error.code).toBe('IMAGE_TOO_MANY_PIXELS');
    expect(error.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(2_000);
    // A genuine large image over a lower cap is refused the same way.
    const real = await solid(1200, 1000).png().toBuffer();
    expect((await rejection(validateAndNormalizeImage(real, { maxPixels: 1_000_000 }))).code).toBe(
      'IMAGE_TOO_MANY_PIXELS',
    );
  });

  it('refuses an SVG carrying a script, even when labelled as JPEG', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
        '<script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
    );
    const error = await rejection(validateAndNormalizeImage(svg));
    expect(error.code).toBe('IMAGE_UNSUPPORTED_TYPE');
    expect(error.status).toBe(415);
    expect(
      (
        await rejection(
          validateAndNormalizeImage(`data:image/jpeg;base64,${svg.toString('base64')}`),
        )
      ).code,
    ).toBe('IMAGE_UNSUPPORTED_TYPE');
  });

  it('refuses other real formats (GIF)', async () => {
    const gif = await solid(16, 16).gif().toBuffer();
    expect((await rejection(validateAndNormalizeImage(gif))).code).toBe('IMAGE_UNSUPPORTED_TYPE');
  });

  it('re-encodes a JPEG/HTML polyglot so that no markup survives', async () => {
    const jpeg = await noisyJpeg(120, 90);
    const html = '<html><body><script>alert("polyglot")</script></body></html>';
    const comment = Buffer.from(html, 'latin1');
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0); // COM marker
    segment.writeUInt16BE(comment.length + 2, 2);
    const polyglot = Buffer.concat([
      jpeg.subarray(0, 2),
      segment,
      comment,
      jpeg.subarray(2),
      Buffer.from(html, 'latin1'),
    ]);
    expect(polyglot.includes(Buffer.from('<script'))).toBe(true);
    const out = await validateAndNormalizeImage(polyglot);
    expect(out.jpeg.includes(Buffer.from('<script'))).toBe(false);
    expect(out.jpeg.includes(Buffer.from('polyglot'))).toBe(false);
    expect(out.jpeg.includes(Buffer.from('<html'))).toBe(false);
  });
});
