/**
 * The web's first load: the bytes of every script the sign-in page (/login)
 * fetches, raw and gzip-compressed (zlib, default level), in Chromium, for two
 * production builds of apps/web made in the same run with Vite's JS API:
 *
 * - "antes": the route table with every screen imported statically, as the
 *   product shipped before route-level code splitting (one entry script with
 *   every screen; the common-password list was already a chunk of its own).
 *   A plugin of this file rewrites, in apps/web/src/app/router.tsx only, each
 *   `import('…').then((module) => ({ default: module.X }))` into a static
 *   import of X. Chosen over `inlineDynamicImports`, which would also inline
 *   the password list (loaded before only by the password pages) and so
 *   overstate "before" by 1 MB; the rewrite reproduces the previous bundle
 *   (1 678 400 bytes measured on /login before the change) give or take the
 *   React.lazy wrappers and the page loader.
 * - "depois": the build exactly as `npm run build -w apps/web` makes it.
 *
 * Each build is served by a small static server (the SPA's fallback to
 * index.html, a stub /app-config.js, 503 for the API) and /login is opened in
 * a fresh browser context. Counted: the build's own scripts (`/assets/*.js`,
 * the modulepreloads included); /app-config.js, written by the server, is the
 * same in both. For reference, the password page (/register-password with a
 * link) is measured too: it is where the common-password list must load.
 *
 *   npm run bench:first-load -w bench
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { build, type Plugin } from 'vite';

const webRoot = path.resolve(import.meta.dirname, '../apps/web');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COMMON_PASSWORDS = /\/assets\/common-passwords-[^/]+\.js$/;
const QUIET_MS = 1000;
const PASSWORD_PAGE = '/register-password/52998224725#token=abcdefghijklmnopqrstuvwxyz0123456789';

/** `import('x').then((module) => ({ default: module.Name }))`, as router.tsx writes each screen. */
const LAZY_SCREEN =
  /import\(\s*'([^']+)'\s*\)\s*\.then\(\s*\(module\)\s*=>\s*\(\{\s*default:\s*module\.(\w+),?\s*\}\)\s*,?\s*\)/g;

/** The "before" build: every screen of the route table imported statically again. */
function eagerRoutes(rewritten: { count: number }): Plugin {
  return {
    name: 'bench-eager-routes',
    enforce: 'pre',
    transform(code, id) {
      if (!id.split('?')[0]!.endsWith('/apps/web/src/app/router.tsx')) return null;
      const imports: string[] = [];
      const eager = code.replace(LAZY_SCREEN, (_match, specifier: string, name: string) => {
        const alias = `__eagerScreen${imports.length}`;
        imports.push(`import { ${name} as ${alias} } from '${specifier}';`);
        return `Promise.resolve({ default: ${alias} })`;
      });
      if (imports.length === 0 || /\bimport\(/.test(eager)) {
        throw new Error('router.tsx mudou de forma: as telas não foram todas reescritas');
      }
      rewritten.count = imports.length;
      return { code: `${imports.join('\n')}\n${eager}`, map: null };
    },
  };
}

async function buildWeb(outDir: string, plugins: Plugin[]): Promise<void> {
  await build({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'error',
    plugins,
    // Source maps are not fetched by the page; leaving them out only makes the run shorter.
    build: { outDir, emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  });
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Serves a dist folder: files as they are, index.html for the app's addresses. */
async function serveStatic(dir: string): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://bench').pathname);
    if (pathname === '/app-config.js') {
      response.writeHead(200, { 'content-type': TYPES['.js'] });
      response.end('window.__APP_CONFIG__ = { "apiBaseUrl": "", "librasWidgetUrl": null };');
      return;
    }
    if (pathname.startsWith('/api/')) {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end('{"message":"Sem servidor na medição."}');
      return;
    }
    let file = path.join(dir, path.normalize(pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(dir, 'index.html');
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type PageScripts = { scripts: number; bytes: number; gzipBytes: number; commonPasswords: boolean };

/**
 * Opens an address in a fresh context and sums the build's scripts it fetched.
 * Counted once the page is ready and then quiet (no request in flight nor
 * started for a second): Chromium's own "network idle" can come before a big
 * script has even run, and so before the requests its screen makes.
 */
async function measure(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<PageScripts & { paths: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: Array<{ path: string; body: Buffer }> = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const finished = async (request: Request) => {
    try {
      const pathname = new URL(request.url()).pathname;
      const response = await request.response();
      if (response && pathname.startsWith('/assets/') && pathname.endsWith('.js')) {
        scripts.push({ path: pathname, body: await response.body() });
      }
    } finally {
      inFlight -= 1;
      lastActivity = Date.now();
    }
  };
  page.on('requestfinished', (request) => void finished(request));
  page.on('requestfailed', () => {
    inFlight -= 1;
    lastActivity = Date.now();
  });
  await page.goto(url);
  await ready(page);
  while (inFlight > 0 || Date.now() - lastActivity < QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await context.close();
  return {
    scripts: scripts.length,
    bytes: scripts.reduce((sum, script) => sum + script.body.length, 0),
    gzipBytes: scripts.reduce((sum, script) => sum + gzipSync(script.body).length, 0),
    commonPasswords: scripts.some((script) => COMMON_PASSWORDS.test(script.path)),
    paths: scripts.map((script) => script.path),
  };
}

if (!fs.existsSync(CHROMIUM_PATH)) {
  throw new Error(`Chromium não encontrado em ${CHROMIUM_PATH} (instale o pacote "chromium").`);
}
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-first-load-'));
const rewritten = { count: 0 };
const builds = {
  antes: { dir: path.join(workDir, 'antes'), plugins: [eagerRoutes(rewritten)] },
  depois: { dir: path.join(workDir, 'depois'), plugins: [] },
};
for (const [name, { dir, plugins }] of Object.entries(builds)) {
  process.stdout.write(`gerando a aplicação web (${name})…\n`);
  await buildWeb(dir, plugins);
}

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const results: Record<string, { login: PageScripts; password: PageScripts }> = {};
try {
  for (const [name, { dir }] of Object.entries(builds)) {
    const server = await serveStatic(dir);
    try {
      const { paths, ...login } = await measure(browser, `${server.baseUrl}/login`, (page) =>
        page.getByRole('button', { name: 'Entrar' }).waitFor(),
      );
      const { paths: _passwordPaths, ...password } = await measure(
        browser,
        `${server.baseUrl}${PASSWORD_PAGE}`,
        (page) => page.getByLabel('Nova senha').first().waitFor(),
      );
      results[name] = { login, password };
      console.log(`/login (${name}): ${paths.join(', ')}`);
    } finally {
      await server.close();
    }
  }
} finally {
  await browser.close();
  fs.rmSync(workDir, { recursive: true, force: true });
}

const before = results.antes!;
const after = results.depois!;
const ratio = (a: number, b: number) => Number((a / b).toFixed(3));
const yesNo = (value: boolean) => (value ? 'sim' : 'não');
const kB = (bytes: number) => Number((bytes / 1000).toFixed(1));

console.log(
  `\nPrimeiro carregamento da página de entrada (/login), Chromium; ` +
    `"antes" = ${rewritten.count} telas importadas estaticamente na tabela de rotas`,
);
console.table({
  'scripts baixados em /login': {
    antes: before.login.scripts,
    depois: after.login.scripts,
    'depois / antes': ratio(after.login.scripts, before.login.scripts),
  },
  'kB dos scripts de /login (sem compressão)': {
    antes: kB(before.login.bytes),
    depois: kB(after.login.bytes),
    'depois / antes': ratio(after.login.bytes, before.login.bytes),
  },
  'kB dos scripts de /login (gzip)': {
    antes: kB(before.login.gzipBytes),
    depois: kB(after.login.gzipBytes),
    'depois / antes': ratio(after.login.gzipBytes, before.login.gzipBytes),
  },
  'lista de senhas comuns baixada em /login': {
    antes: yesNo(before.login.commonPasswords),
    depois: yesNo(after.login.commonPasswords),
    'depois / antes': '',
  },
  'kB dos scripts de /register-password (sem compressão)': {
    antes: kB(before.password.bytes),
    depois: kB(after.password.bytes),
    'depois / antes': ratio(after.password.bytes, before.password.bytes),
  },
  'lista de senhas comuns baixada em /register-password': {
    antes: yesNo(before.password.commonPasswords),
    depois: yesNo(after.password.commonPasswords),
    'depois / antes': '',
  },
});
console.log(
  JSON.stringify({
    screensMadeEagerForBefore: rewritten.count,
    before,
    after,
    loginBytesRatio: ratio(after.login.bytes, before.login.bytes),
    loginGzipRatio: ratio(after.login.gzipBytes, before.login.gzipBytes),
  }),
);
if (
  after.login.bytes >= before.login.bytes ||
  after.login.commonPasswords ||
  !after.password.commonPasswords
) {
  process.exitCode = 1;
}
