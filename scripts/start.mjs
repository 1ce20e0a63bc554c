#!/usr/bin/env node
/**
 * `npm start`: builds the web app and the server when a build is missing or
 * older than its sources, then runs the compiled server
 * (`node apps/server/dist/main.js`, no TypeScript loader: migrations,
 * first-start seed, listen). The server process receives the signals, so
 * Ctrl+C shuts it down gracefully.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_DIST_ENTRY, serverBuildState } from '../apps/server/build/server-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function webNeedsBuild() {
  if (!fs.existsSync(builtIndex)) return true;
  const built = fs.statSync(builtIndex).mtimeMs;
  const sources = [
    path.join(web, 'src'),
    path.join(web, 'public'),
    path.join(web, 'index.html'),
    path.join(web, 'vite.config.ts'),
    path.join(root, 'packages/shared/src'),
  ];
  return sources.some((source) => newestMtime(source) > built);
}

/** `npm run build` of one workspace; stops `npm start` if it fails. */
function buildWorkspace(workspace, failure) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '-w', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(failure);
    process.exit(result.status ?? 1);
  }
}

if (webNeedsBuild()) {
  console.log('Gerando a aplicação web (vite build)...');
  buildWorkspace('apps/web', 'Falha ao gerar a aplicação web.');
}

if (serverBuildState() !== 'current') {
  console.log('Compilando o servidor (esbuild)...');
  buildWorkspace('apps/server', 'Falha ao compilar o servidor.');
}

const server = spawn(process.execPath, [SERVER_DIST_ENTRY], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
