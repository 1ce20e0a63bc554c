/**
 * Build step of the web app: next to each text file of the production build
 * (scripts, styles, the HTML shell, SVG, JSON) it writes a brotli (`.br`,
 * highest quality) and a gzip (`.gz`, level 9) copy, made once here so the
 * server sends them as they are (`@fastify/static` with `preCompressed`)
 * instead of compressing on every request. Files under 1 KiB, source maps and
 * copies that save less than a tenth are left out: the server then sends the
 * next encoding, or the file itself.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|wasm)$/i;
const MIN_BYTES = 1024;
/** A copy is kept only when it is at most this share of the original. */
const MAX_RATIO = 0.9;

export type PrecompressedFile = {
  /** Path relative to the build folder, with `/` separators. */
  file: string;
  bytes: number;
  brotliBytes: number | null;
  gzipBytes: number | null;
};

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

async function writeIfSmaller(target: string, original: number, data: Buffer) {
  if (data.length > original * MAX_RATIO) {
    await fs.rm(target, { force: true });
    return null;
  }
  await fs.writeFile(target, data);
  return data.length;
}

/** Writes the `.br` and `.gz` copies of every compressible file under `dir`. */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const files = (await listFiles(dir)).filter((file) => COMPRESSIBLE.test(file));
  const results = await Promise.all(
    files.map(async (file): Promise<PrecompressedFile | null> => {
      const content = await fs.readFile(file);
      if (content.length < MIN_BYTES) return null;
      // zlib runs on libuv's thread pool: the files compress in parallel.
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      return {
        file: path.relative(dir, file).split(path.sep).join('/'),
        bytes: content.length,
        brotliBytes: await writeIfSmaller(`${file}.br`, content.length, br),
        gzipBytes: await writeIfSmaller(`${file}.gz`, content.length, gz),
      };
    }),
  );
  return results.filter((result): result is PrecompressedFile => result !== null);
}

/** The Vite plugin: compresses the build folder once everything is written. */
export function precompress(): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'exame-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle(error?: Error) {
      // A failed build wrote nothing: its own error is the one to read.
      if (error) return;
      const files = await precompressDir(outDir);
      const sum = (pick: (file: PrecompressedFile) => number | null) =>
        files.reduce((total, file) => total + (pick(file) ?? file.bytes), 0);
      const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
      logger?.info(
        `pré-compressão: ${files.length} arquivos, ${kB(sum((file) => file.bytes))} -> ` +
          `brotli ${kB(sum((file) => file.brotliBytes))}, gzip ${kB(sum((file) => file.gzipBytes))}`,
      );
    },
  };
}
