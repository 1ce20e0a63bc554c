/**
 * A pass of background work that runs once at a time: a call while a pass is
 * running starts no second one but asks for one more pass after it (what the
 * caller wanted handled may have arrived too late for the running pass), and
 * every caller gets the same promise. Used by the mail outbox and the queue of
 * password-link requests.
 */
export type CoalescedRuns = {
  /** Runs a pass now, or joins the running one and asks for another after it. */
  run(): Promise<void>;
  /** Resolves once no pass is running (whether the last one failed or not). */
  idle(): Promise<void>;
};

export function coalescedRuns(pass: () => Promise<void>): CoalescedRuns {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    run,
    async idle() {
      while (running) await running.catch(() => undefined);
    },
  };
}
