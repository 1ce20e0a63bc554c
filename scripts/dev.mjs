#!/usr/bin/env node
/**
 * `npm run dev`: the server with reload on change (tsx watch, port 3000) and
 * the Vite dev server (port 5173) that proxies the API to it. Ctrl+C stops both.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = [
  spawn(
    process.execPath,
    ['--import', 'tsx', '--watch', path.join(root, 'apps/server/src/main.ts')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  ),
  spawn(npm, ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }),
];
console.log(
  'Servidor em http://localhost:3000 e aplicação web (com recarga) em http://localhost:5173',
);
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
