/**
 * The capture sent to `api/BiopassID/Verify`: the verified picture once, as
 * `image`, and only the other frames of the burst in `frames`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureFromBurst, stripDataUrlPrefix } from '../../../lib/face-capture';
import { verifyFace } from './biometrics';

const jpeg = (n: number) => `data:image/jpeg;base64,/9j/quadro${n}`;

describe('capture payload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('strips everything up to the first comma, whatever the type', () => {
    expect(stripDataUrlPrefix(jpeg(1))).toBe('/9j/quadro1');
    expect(stripDataUrlPrefix('data:image/png;base64,iVBORw0')).toBe('iVBORw0');
    expect(stripDataUrlPrefix('/9j/sem-prefixo')).toBe('/9j/sem-prefixo');
  });

  it('the first picture of the burst is the image; frames carry only the others, in order', () => {
    expect(captureFromBurst([jpeg(1), jpeg(2), jpeg(3)])).toEqual({
      image: '/9j/quadro1',
      frames: ['/9j/quadro2', '/9j/quadro3'],
    });
    expect(captureFromBurst([jpeg(1)])).toEqual({ image: '/9j/quadro1', frames: [] });
  });

  it('Verify sends each picture once: cpf, image, uf and local of the specification, and the other frames', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            verificationId: 'v1',
            cpf: '52998224725',
            verified: true,
            message: 'ok',
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await verifyFace({
      cpf: '52998224725',
      capture: captureFromBurst([jpeg(1), jpeg(2), jpeg(3)]),
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      cpf: '52998224725',
      image: '/9j/quadro1',
      frames: ['/9j/quadro2', '/9j/quadro3'],
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    expect(body.frames).not.toContain(body.image);
    expect(typeof body.deviceId).toBe('string');
  });
});
