/**
 * `npm run counters:check -w apps/server`: compares the report's maintained
 * counters with a full recount of the exams and lists the rows that differ
 * (exit code 1 when any does).
 * `npm run counters:rebuild -w apps/server`: recomputes every counter row
 * from the exams in one transaction (writes to exams wait meanwhile), then
 * checks again. For after a bulk load that bypassed the triggers, a restore
 * or a change of the counting rule. Both use the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR).
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { diffCounters, rebuildCounters } from '../modules/exam-report/exam-counts.repository';

const command = process.argv[2];
if (command !== 'check' && command !== 'rebuild') {
  console.error('Uso: counters.ts check | rebuild');
  process.exit(2);
}

const handle = await openDatabase(targetFromConfig(loadConfig()));
try {
  await handle.migrate();
  if (command === 'rebuild') {
    const started = performance.now();
    const rows = await handle.db.transaction((tx) => rebuildCounters(tx));
    console.log(
      `Contadores recalculados: ${rows.toLocaleString('pt-BR')} linhas em ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
  const started = performance.now();
  const differences = await diffCounters(handle.db);
  const elapsed = ((performance.now() - started) / 1000).toFixed(1);
  if (differences.length === 0) {
    console.log(
      `Contadores conferidos com a recontagem completa: nenhuma diferença (${elapsed} s).`,
    );
  } else {
    console.log(`Contadores diferentes da recontagem completa (${differences.length}):`);
    console.table(
      differences.map((row) => ({
        UF: row.federativeUnit,
        dia: row.day,
        posto: row.schedulingLocal || '(sem posto)',
        status: row.status,
        resultado: row.result || '—',
        mantido: `${row.kept.exams}/${row.kept.pendingAudit}/${row.kept.absence}/${row.kept.interrupted}`,
        recontado: `${row.recounted.exams}/${row.recounted.pendingAudit}/${row.recounted.absence}/${row.recounted.interrupted}`,
      })),
    );
    console.log('Colunas: exames/pendingAudit/absence/interrupted. Corrija com counters:rebuild.');
    process.exitCode = 1;
  }
} finally {
  await handle.close();
}
