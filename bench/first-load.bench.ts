/**
 * The web's first load over the wire: the bytes Chromium receives for the
 * sign-in page (/login) — the HTML shell, every script and every style sheet
 * it fetches — with the production build served by the server's own web
 * plugin (apps/server/src/plugins/web.ts), in one run:
 *
 * - "antes": the build without its compressed copies, as the server sent it
 *   before the build step that writes them (every file as it is);
 * - "gzip": the build as `npm run build -w apps/web` makes it, for a client
 *   that accepts only gzip;
 * - "brotli": the same, for Chromium as it is (it accepts br).
 *
 * Counted per response: its headers and its body as received (encoded), and
 * the body once decoded. /app-config.js, written by the server, is counted
 * with the scripts (small, the same in every column). Each column opens /login
 * in a fresh browser context, so nothing comes from a cache.
 *
 *   npm run bench:first-load -w bench
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { chromium, type Browser, type Request } from 'playwright-core';
import { build } from 'vite';
import type { AppConfig } from '../apps/server/src/config/env';
import { registerWeb } from '../apps/server/src/plugins/web';

const webRoot = path.resolve(import.meta.dirname, '../apps/web');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const QUIET_MS = 1000;

type Kind = 'html' | 'js' | 'css';
type Totals = { files: number; wire: number; decoded: number };
type Load = Record<Kind, Totals> & { encodings: string[] };

function kindOf(request: Request): Kind | null {
  const pathname = new URL(request.url()).pathname;
  if (request.resourceType() === 'document') return 'html';
  if (pathname.endsWith('.js')) return 'js';
  if (pathname.endsWith('.css')) return 'css';
  return null;
}

/** The web plugin alone on a port of its own, serving `dir`. */
async function serveBuild(dir: string) {
  const app = Fastify({ logger: false });
  const config = {
    webDistDir: dir,
    publicApiBaseUrl: '',
    librasWidgetUrl: undefined,
  } as unknown as AppConfig;
  await registerWeb(app, config);
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl, close: () => app.close() };
}

/**
 * Opens /login in a fresh context and adds up what it received, once the
 * page is ready and then quiet (no request in flight nor started for a second).
 */
async function measure(
  browser: Browser,
  url: string,
  headers: Record<string, string> = {},
): Promise<Load> {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  const page = await context.newPage();
  const load: Load = {
    html: { files: 0, wire: 0, decoded: 0 },
    js: { files: 0, wire: 0, decoded: 0 },
    css: { files: 0, wire: 0, decoded: 0 },
    encodings: [],
  };
  let inFlight = 0;
  let lastActivity = Date.now();
  const settle = () => {
    inFlight -= 1;
    lastActivity = Date.now();
  };
  page.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const finished = async (request: Request) => {
    try {
      const kind = kindOf(request);
      const response = await request.response();
      if (!kind || !response) return;
      const sizes = await request.sizes();
      const body = await response.body();
      const encoding = (await response.allHeaders())['content-encoding'] ?? 'nenhuma';
      load[kind].files += 1;
      load[kind].wire += sizes.responseHeadersSize + sizes.responseBodySize;
      load[kind].decoded += body.length;
      if (!load.encodings.includes(encoding)) load.encodings.push(encoding);
    } finally {
      settle();
    }
  };
  page.on('requestfinished', (request) => void finished(request));
  page.on('requestfailed', settle);
  await page.goto(url);
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  while (inFlight > 0 || Date.now() - lastActivity < QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await context.close();
  return load;
}

if (!fs.existsSync(CHROMIUM_PATH)) {
  throw new Error(`Chromium não encontrado em ${CHROMIUM_PATH} (instale o pacote "chromium").`);
}
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-first-load-'));
const compressedDir = path.join(workDir, 'depois');
const plainDir = path.join(workDir, 'antes');
process.stdout.write('gerando a aplicação web (build de produção, com a pré-compressão)…\n');
await build({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  logLevel: 'warn',
  // Source maps are not fetched by the page; leaving them out only makes the run shorter.
  build: {
    outDir: compressedDir,
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
fs.cpSync(compressedDir, plainDir, {
  recursive: true,
  filter: (source) => !/\.(?:br|gz)$/.test(source),
});

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const results: Record<'antes' | 'gzip' | 'brotli', Load> = {} as never;
try {
  const plain = await serveBuild(plainDir);
  try {
    results.antes = await measure(browser, `${plain.baseUrl}/login`);
  } finally {
    await plain.close();
  }
  const compressed = await serveBuild(compressedDir);
  try {
    results.gzip = await measure(browser, `${compressed.baseUrl}/login`, {
      'accept-encoding': 'gzip',
    });
    results.brotli = await measure(browser, `${compressed.baseUrl}/login`);
  } finally {
    await compressed.close();
  }
} finally {
  await browser.close();
  fs.rmSync(workDir, { recursive: true, force: true });
}

const { antes, gzip, brotli } = results;
const total = (load: Load) => ({
  files: load.html.files + load.js.files + load.css.files,
  wire: load.html.wire + load.js.wire + load.css.wire,
  decoded: load.html.decoded + load.js.decoded + load.css.decoded,
});
const kB = (bytes: number) => Number((bytes / 1000).toFixed(1));
const ratio = (after: number, before: number) => Number((after / before).toFixed(3));
const row = (pick: (load: Load) => number) => ({
  antes: kB(pick(antes)),
  gzip: kB(pick(gzip)),
  brotli: kB(pick(brotli)),
  'gzip / antes': ratio(pick(gzip), pick(antes)),
  'brotli / antes': ratio(pick(brotli), pick(antes)),
});

console.log(
  `\nPrimeira carga de /login no Chromium, kB recebidos (cabeçalhos + corpo como veio); ` +
    `${total(brotli).files} arquivos: ${brotli.html.files} HTML, ${brotli.js.files} scripts, ` +
    `${brotli.css.files} folhas de estilo`,
);
console.table({
  'HTML (recebido)': row((load) => load.html.wire),
  'scripts (recebido)': row((load) => load.js.wire),
  'estilos (recebido)': row((load) => load.css.wire),
  'total recebido': row((load) => total(load).wire),
  'total descomprimido': row((load) => total(load).decoded),
});
console.log(
  `codificações: antes ${antes.encodings.join(', ')}; gzip ${gzip.encodings.join(', ')}; ` +
    `brotli ${brotli.encodings.join(', ')}`,
);
console.log(
  JSON.stringify({
    antes,
    gzip,
    brotli,
    totalBytes: {
      antes: total(antes).wire,
      gzip: total(gzip).wire,
      brotli: total(brotli).wire,
    },
    gzipRatio: ratio(total(gzip).wire, total(antes).wire),
    brotliRatio: ratio(total(brotli).wire, total(antes).wire),
  }),
);
// The same page in every column, and compression that pays.
if (
  total(gzip).decoded !== total(antes).decoded ||
  total(brotli).decoded !== total(antes).decoded ||
  !brotli.encodings.includes('br') ||
  !gzip.encodings.includes('gzip') ||
  total(brotli).wire >= total(antes).wire / 2
) {
  process.exitCode = 1;
}
