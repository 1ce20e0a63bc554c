import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

/** Text that compresses well, like a bundle (repeated identifiers). */
const SCRIPT = Array.from(
  { length: 400 },
  (_, index) => `export const item${index} = ${index};`,
).join('\n');

describe('precompression of the build', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes brotli and gzip copies that decode to the file, and skips what does not gain', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'assets', 'index-Cd34.css'), `.a{color:red}\n`.repeat(200));
    fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12.js.map'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    // Random bytes do not compress: no copy is kept.
    fs.writeFileSync(
      path.join(dir, 'assets', 'noise.json'),
      Buffer.from(Array.from({ length: 4096 }, () => Math.floor(Math.random() * 256))),
    );

    const files = await precompressDir(dir);

    const script = path.join(dir, 'assets', 'index-Ab12.js');
    const br = fs.readFileSync(`${script}.br`);
    const gz = fs.readFileSync(`${script}.gz`);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(SCRIPT);
    expect(zlib.gunzipSync(gz).toString()).toBe(SCRIPT);
    expect(br.length).toBeLessThan(SCRIPT.length / 4);
    expect(fs.existsSync(path.join(dir, 'assets', 'index-Cd34.css.br'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'assets', 'index-Cd34.css.gz'))).toBe(true);
    // Source maps, images, files under 1 KiB and incompressible files are left alone.
    for (const name of [
      'assets/index-Ab12.js.map',
      'assets/logo.png',
      'index.html',
      'assets/noise.json',
    ]) {
      expect(fs.existsSync(path.join(dir, `${name}.br`)), name).toBe(false);
      expect(fs.existsSync(path.join(dir, `${name}.gz`)), name).toBe(false);
    }
    expect(files.map((file) => file.file).sort()).toEqual([
      'assets/index-Ab12.js',
      'assets/index-Cd34.css',
      'assets/noise.json',
    ]);
    expect(files.find((file) => file.file === 'assets/noise.json')).toMatchObject({
      brotliBytes: null,
      gzipBytes: null,
    });
  });
});
