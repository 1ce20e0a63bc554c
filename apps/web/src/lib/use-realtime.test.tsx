/**
 * `useRealtimeEvents`: the stream lives with the screen, reconnects when its
 * local changes, keeps the latest callbacks, and as the exam-notification
 * watcher is closed by logout through the app store (spec 4).
 */
import type { RealtimeEvent } from '@exame/shared';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeEventServer, examChanged } from '../test/fake-event-stream';
import { appStore } from './app-store';
import { useRealtimeEvents } from './use-realtime';
import { TEST_USER } from '../test/fixtures';

function signIn() {
  appStore.setUser({ ...TEST_USER, roleDescription: 'VIEWER' });
}

describe('useRealtimeEvents', () => {
  let server: ReturnType<typeof createFakeEventServer>;
  beforeEach(() => {
    server = createFakeEventServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('opens with the screen, follows its local, hands events to the latest callback, closes on unmount', async () => {
    signIn();
    const seen: string[] = [];
    const hook = renderHook(
      ({ local, tag }: { local: string; tag: string }) =>
        useRealtimeEvents(
          { local, onEvent: (event: RealtimeEvent) => seen.push(`${tag}:${event.id}`) },
          [],
        ),
      { initialProps: { local: 'DF.POSTO01-S1', tag: 'a' } },
    );
    await vi.waitFor(() => expect(hook.result.current).toBe('open'));
    hook.rerender({ local: 'DF.POSTO01-S1', tag: 'b' });
    // A new callback is not a new connection.
    expect(server.connections).toHaveLength(1);
    server.connections[0]!.sendEvent(examChanged(1));
    await vi.waitFor(() => expect(seen).toEqual(['b:1']));

    hook.rerender({ local: 'DF.POSTO02-S1', tag: 'b' });
    await vi.waitFor(() => expect(server.connections).toHaveLength(2));
    expect(server.connections[0]!.signal?.aborted).toBe(true);
    expect(server.connections[1]!.url.searchParams.get('local')).toBe('DF.POSTO02-S1');
    hook.unmount();
    expect(server.connections[1]!.signal?.aborted).toBe(true);
  });

  it('opens nothing without a session', async () => {
    const hook = renderHook(() => useRealtimeEvents({ onEvent: () => undefined }, []));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.connections).toHaveLength(0);
    expect(hook.result.current).toBe('closed');
  });

  it('as the exam-notification watcher, logout unsubscribes it through the app store', async () => {
    signIn();
    const hook = renderHook(() =>
      useRealtimeEvents({ onEvent: () => undefined, examNotification: true }, []),
    );
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    expect(appStore.getState().unsubscribeDocExamNotification).toBeTypeOf('function');
    act(() => appStore.clearSession());
    expect(server.connections[0]!.signal?.aborted).toBe(true);
    expect(appStore.getState().unsubscribeDocExamNotification).toBeNull();
    await vi.waitFor(() => expect(hook.result.current).toBe('closed'));
    hook.unmount();
    expect(server.connections).toHaveLength(1);
  });
});
