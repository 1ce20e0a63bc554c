/**
 * The suites that run the face engine run once, on the embedded database
 * tier: CI reruns the server suites on PostgreSQL (TEST_DATABASE_URL is
 * set), and the engine has no database part.
 */
const onDatabaseRun = Boolean(process.env.TEST_DATABASE_URL);

/**
 * '' on the embedded tier; on the PostgreSQL rerun, the reason to skip
 * `suite` (said once on the console), for `describe.skipIf` and its title.
 */
export function faceEngineSkipReason(suite: string): string {
  if (!onDatabaseRun) return '';
  const reason = 'SKIPPED: the face engine runs once, on the embedded database tier';
  console.warn(`${suite} ${reason}`);
  return reason;
}
