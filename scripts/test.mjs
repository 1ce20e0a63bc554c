/**
 * `npm test`: the checks (format, lint, types) and every test suite.
 *
 * The suites run one after the other at normal priority, as `&&` would:
 * unit, server, research, then end to end (after the build). The checks run
 * beside them from the start at the lowest CPU priority (`nice -n 19`): they
 * take only the cores the suites leave idle, mostly while end-to-end specs
 * wait on a page or a camera clip, so they neither lengthen the run nor slow
 * a timed step of a test. A failed check is said at once and its output
 * printed at the end; a failed suite stops the suites after it. The run ends
 * with the time of each part and fails when any part failed.
 *
 * `node scripts/test.mjs --checks` runs only the checks, side by side at
 * normal priority (`npm run check`).
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';

const CHECKS = ['format:check', 'lint', 'typecheck'];
const SUITES = ['test:unit', 'test:server', 'test:research', 'test:e2e'];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const niceCommand = process.platform !== 'win32' && spawnSync('nice', ['true']).status === 0;

/**
 * Runs `npm run <script>`. A check's output is kept and returned; a suite's
 * goes straight to this terminal. `background` lowers the CPU priority of the
 * script and of every process it starts.
 */
function run(script, { background = false, keepOutput = false } = {}) {
  const started = performance.now();
  const npmArgs = ['run', ...(keepOutput ? ['--silent'] : []), script];
  const [command, args] =
    background && niceCommand ? ['nice', ['-n', '19', npm, ...npmArgs]] : [npm, npmArgs];
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: keepOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: keepOutput
        ? { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' }
        : process.env,
    });
    if (background && !niceCommand && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // Lowering the priority is a courtesy to the suites; the check still runs.
      }
    }
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
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

const verdict = (result) => (result.code === 0 ? 'ok' : `FALHOU (saída ${result.code})`);

function printCheck(result) {
  console.log(`\n> npm run ${result.script}: ${verdict(result)} em ${result.seconds.toFixed(1)} s`);
  if (result.output.trim()) console.log(result.output.trimEnd());
}

const onlyChecks = process.argv.includes('--checks');
const started = performance.now();

const checks = Promise.all(
  CHECKS.map(async (script) => {
    const result = await run(script, { background: !onlyChecks, keepOutput: true });
    if (!onlyChecks && result.code !== 0) {
      console.error(`\n!! npm run ${script} falhou; a saída vem no fim.\n`);
    }
    return result;
  }),
);

const suites = [];
if (!onlyChecks) {
  for (const script of SUITES) {
    const result = await run(script);
    suites.push(result);
    if (result.code !== 0) break;
  }
}

const checked = await checks;
checked.forEach(printCheck);

const width = Math.max(...[...CHECKS, ...SUITES].map((script) => script.length));
const line = (result, note = '') =>
  `  ${result.script.padEnd(width)}  ${verdict(result).padEnd(18)} ${result.seconds.toFixed(0).padStart(5)} s${note}`;
const total = (performance.now() - started) / 1000;
console.log(`\nResumo (${Math.floor(total / 60)} min ${Math.round(total % 60)} s):`);
for (const result of suites) console.log(line(result));
const skipped = onlyChecks ? [] : SUITES.slice(suites.length);
for (const script of skipped) console.log(`  ${script.padEnd(width)}  não rodou`);
const beside = onlyChecks ? '' : ' (ao lado das suítes, prioridade baixa)';
for (const result of checked) console.log(line(result, beside));

const failed = [...checked, ...suites].some((result) => result.code !== 0) || skipped.length > 0;
process.exit(failed ? 1 : 0);
