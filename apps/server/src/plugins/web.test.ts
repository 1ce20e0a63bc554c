import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';

const SCRIPT = 'console.log("exame");\n'.repeat(100);
const STYLES = '.mantine-Button-root{color:#1456e8}\n'.repeat(100);

describe('web app serving', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>app</title><div id="root"></div>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
    // What the build writes (apps/web/build/precompress.ts): each text file and its two copies.
    for (const [name, content] of [
      ['entry-Ef56Gh78.js', SCRIPT],
      ['entry-Ij90Kl12.css', STYLES],
    ] as const) {
      const file = path.join(dist, 'assets', name);
      fs.writeFileSync(file, content);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
    }
    fs.writeFileSync(
      path.join(dist, 'default-theme-favicon.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    t = await buildTestApp({
      config: {
        webDistDir: dist,
        librasWidgetUrl: 'https://libras.example.gov.br/widget.js',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('hashed assets get a long immutable cache', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('scripts and styles go as their brotli or gzip copy when the client accepts one, as they are otherwise', async () => {
    const asset = (url: string, acceptEncoding?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
    for (const [url, content, type] of [
      ['/assets/entry-Ef56Gh78.js', SCRIPT, 'javascript'],
      ['/assets/entry-Ij90Kl12.css', STYLES, 'text/css'],
    ] as const) {
      const br = await asset(url, 'gzip, deflate, br, zstd');
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toContain(type);
      expect(br.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary, url).toContain('accept-encoding');
      expect(br.rawPayload.length, url).toBeLessThan(content.length / 4);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString(), url).toBe(content);

      const gzip = await asset(url, 'gzip');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gzip.headers['content-type'], url).toContain(type);
      expect(zlib.gunzipSync(gzip.rawPayload).toString(), url).toBe(content);

      for (const plain of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
        const response = await asset(url, plain);
        expect(response.statusCode, `${url} ${plain}`).toBe(200);
        expect(response.headers['content-encoding'], `${url} ${plain}`).toBeUndefined();
        expect(response.body, `${url} ${plain}`).toBe(content);
      }
    }
  });

  it('the compressed copies are not addresses of their own', async () => {
    for (const url of ['/assets/entry-Ef56Gh78.js.br', '/assets/entry-Ij90Kl12.css.gz']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('other static files are revalidated', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/default-theme-favicon.svg',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('client routes fall back to index.html, never cached', async () => {
    for (const url of ['/', '/login', '/exames/ABC-123', '/exam-report/7?x=1']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('API paths and missing files are JSON 404s, not the app', async () => {
    for (const url of ['/api/Qualquer', '/assets/missing-123.js', '/health/nada']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/login' });
    expect(post.statusCode).toBe(404);
  });

  it('sends security headers, with the widget origin allowed for scripts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/login' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' https:\/\/libras\.example\.gov\.br/);
    expect(response.headers['permissions-policy']).toContain('camera=(self)');
  });

  it('serves the runtime configuration of the web app', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/app-config.js',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/javascript');
    expect(response.body).toBe(
      'window.__APP_CONFIG__ = {"apiBaseUrl":"","librasWidgetUrl":"https://libras.example.gov.br/widget.js"};\n',
    );
  });

  it('serves the OpenAPI document and viewer at /docs', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
    const document = spec.json() as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/FederativeUnit', '/health/live', '/health/ready']),
    );
    const viewer = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.body).toContain('swagger');
  });
});
