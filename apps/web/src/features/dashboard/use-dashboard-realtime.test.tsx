/**
 * The dashboard's counters follow the unit's realtime events: an exam change
 * reloads them once, 500 ms after the first change of a burst, never while a
 * load runs; other events leave them alone; leaving the screen closes the
 * stream.
 */
import { emptyCounters, emptyMetadataCounts, type LocalReport } from '@exame/shared';
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../lib/app-store';
import { createFakeEventServer, examChanged } from '../../test/fake-event-stream';
import { renderHookWithProviders } from '../../test/render';
import { REALTIME_REFRESH_DELAY_MS, useDashboard } from './use-dashboard';
import { TEST_USER } from '../../test/fixtures';

const TODAY = '2026-03-10';

function report(total: number): LocalReport[] {
  return [
    {
      id: 'DF.POSTO01',
      identifier: 'DEMO.POSTO01',
      name: 'Posto Centro',
      report: { ...emptyCounters(), total },
      fromMetadata: emptyMetadataCounts(),
    },
  ];
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('useDashboard: realtime refresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(`${TODAY}T15:00:00Z`));
    // The refresh timer off: every load below comes from an event.
    window.localStorage.setItem('timer', '0');
    appStore.setUser(TEST_USER);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  function setup() {
    const loads: Array<(total: number) => void> = [];
    const server = createFakeEventServer(
      (url) =>
        new Promise<Response>((resolve) => {
          if (url.pathname !== '/api/ExamReport') {
            resolve(new Response('{}', { status: 404 }));
            return;
          }
          loads.push((total) => resolve(new Response(JSON.stringify(report(total)))));
        }),
    );
    vi.stubGlobal('fetch', server.fetch);
    const hook = renderHookWithProviders(() => useDashboard({ onError: () => undefined }));
    return { server, loads, hook };
  }

  it('a burst of exam changes reloads the counters once, after 500 ms', async () => {
    const { server, loads, hook } = setup();
    await advance(0);
    expect(loads).toHaveLength(1);
    loads[0]!(1);
    await advance(0);
    expect(server.connections).toHaveLength(1);
    expect(hook.result.current.resume.total).toBe(1);

    const stream = server.connections[0]!;
    stream.sendEvent(examChanged(1));
    await advance(200);
    stream.sendEvent(examChanged(2));
    stream.sendEvent(examChanged(3));
    await advance(REALTIME_REFRESH_DELAY_MS - 201);
    expect(loads).toHaveLength(1);
    await advance(1);
    expect(loads).toHaveLength(2);
    loads[1]!(4);
    await advance(0);
    expect(hook.result.current.resume.total).toBe(4);
    await advance(5000);
    expect(loads).toHaveLength(2);

    // An occurrence or a photo does not change the counters.
    stream.send(
      `id: 4\nevent: photo_added\ndata: ${JSON.stringify({
        id: 4,
        kind: 'photo_added',
        federativeUnit: 'DF',
        schedulingLocal: 'DF.POSTO01-S1',
        at: '2026-03-10T15:00:00.000Z',
        payload: { examId: 'e', schedulingId: 'AG-1', photoId: 'p' },
      })}\n\n`,
    );
    await advance(5000);
    expect(loads).toHaveLength(2);
  });

  it('a change during a load waits for it to end, then reloads', async () => {
    const { server, loads } = setup();
    await advance(0);
    expect(loads).toHaveLength(1);
    server.connections[0]!.sendEvent(examChanged(1));
    await advance(REALTIME_REFRESH_DELAY_MS * 3);
    // The first load is still running: not cancelled, not joined by a second.
    expect(loads).toHaveLength(1);
    loads[0]!(1);
    await advance(REALTIME_REFRESH_DELAY_MS);
    expect(loads).toHaveLength(2);
  });

  it('leaving the screen closes the stream', async () => {
    const { server, hook } = setup();
    await advance(0);
    const stream = server.connections[0]!;
    hook.unmount();
    expect(stream.signal?.aborted).toBe(true);
    await advance(60_000);
    expect(server.connections).toHaveLength(1);
  });
});
