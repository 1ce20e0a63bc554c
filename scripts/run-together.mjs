/**
 * Runs npm scripts at the same time and fails when any of them fails:
 * `node scripts/run-together.mjs format:check lint typecheck`. Each script's
 * output is printed whole when it ends, in the order the scripts were named,
 * so the log reads as if they had run one after the other. `npm test` uses it
 * for the checks before the tests: each is one process bound to one core, and
 * side by side they take the time of the longest instead of the sum.
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('uso: node scripts/run-together.mjs <script npm> [<script npm> ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) =>
      resolve({
        script,
        code: code ?? (signal ? 1 : 0),
        output: Buffer.concat(chunks).toString(),
        seconds: (performance.now() - started) / 1000,
      }),
    );
  });
}

const results = await Promise.all(scripts.map(run));
for (const result of results) {
  const verdict = result.code === 0 ? 'ok' : `FALHOU (saída ${result.code})`;
  console.log(`\n> npm run ${result.script}: ${verdict} em ${result.seconds.toFixed(1)} s`);
  if (result.output.trim()) console.log(result.output.trimEnd());
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
