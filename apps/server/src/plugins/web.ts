/**
 * Serves the built web app: hashed assets with a long cache, index.html never
 * cached, and the SPA fallback for any other GET that is not an API path.
 * The build writes a brotli and a gzip copy of each text file
 * (apps/web/build/precompress.ts): a client that accepts one gets it as it
 * is, with `content-encoding`; nothing is compressed per request.
 * Also serves /app-config.js, the runtime settings the web app reads at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/env';
import { AppError } from '../lib/app-error';
import { toErrorBody } from './error-handler';

const NON_SPA_PREFIXES = ['/api/', '/api', '/health/', '/docs'];
const HASHED_ASSET = /^\/assets\//;
/** The build's compressed copies: sent in place of their file, never asked for by name. */
const COMPRESSED_COPY = /\.(?:br|gz)$/;

export type WebClientConfig = {
  apiBaseUrl: string;
  librasWidgetUrl: string | null;
};

export function webClientConfig(config: AppConfig): WebClientConfig {
  return {
    apiBaseUrl: config.publicApiBaseUrl,
    librasWidgetUrl: config.librasWidgetUrl ?? null,
  };
}

function wantsSpa(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url.split('?')[0] ?? '';
  if (NON_SPA_PREFIXES.some((prefix) => url === prefix || url.startsWith(prefix))) return false;
  // A missing file with an extension (a stale asset) is a 404, not the app.
  if (path.extname(url) !== '') return false;
  return true;
}

export async function registerWeb(app: FastifyInstance, config: AppConfig): Promise<void> {
  const clientConfig = `window.__APP_CONFIG__ = ${JSON.stringify(webClientConfig(config))};\n`;
  app.get(
    '/app-config.js',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) =>
      reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(clientConfig),
  );

  const indexFile = path.join(config.webDistDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  // Read once: the shell is small and only changes with a new build (and a restart).
  const indexHtml = hasWeb ? fs.readFileSync(indexFile, 'utf8') : '';
  if (hasWeb) {
    await app.register(async (staticScope) => {
      // The built files are public by nature; mark the routes the plugin adds.
      staticScope.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      await staticScope.register(fastifyStatic, {
        root: config.webDistDir,
        prefix: '/',
        wildcard: false,
        index: false,
        cacheControl: false,
        preCompressed: true,
        allowedPath: (pathname) => !COMPRESSED_COPY.test(pathname),
        setHeaders: (res, filePath) => {
          const relative = `/${path.relative(config.webDistDir, filePath).split(path.sep).join('/')}`;
          res.setHeader(
            'cache-control',
            HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
          // Caches between the server and the browser keep one copy per encoding.
          res.setHeader('vary', 'accept-encoding');
        },
      });
    });
  } else {
    app.log.warn({ webDistDir: config.webDistDir }, 'web app not built: only the API is served');
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (hasWeb && wantsSpa(request)) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    }
    return reply.status(404).send(toErrorBody(AppError.of('ROUTE_NOT_FOUND', 404), request.id));
  });
}
