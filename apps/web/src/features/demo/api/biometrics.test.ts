/**
 * The take sent to `api/BiopassID/Verify` and `api/BiopassID/Create`: its
 * challenge, the first (neutral) picture once, as `image`, and only the
 * other pictures of the take in `frames`, in order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureFromTake, stripDataUrlPrefix } from '../../../lib/face-capture';
import { enrolFace, verifyFace } from './biometrics';

const CHALLENGE = '7a1c9e52-3b4d-4f6a-8e2b-1c0d9f8e7a65';

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

  it('the first picture of the take is the image; frames carry only the others, in order', () => {
    expect(captureFromTake(CHALLENGE, [jpeg(1), jpeg(2), jpeg(3), jpeg(4)])).toEqual({
      challengeId: CHALLENGE,
      image: '/9j/quadro1',
      frames: ['/9j/quadro2', '/9j/quadro3', '/9j/quadro4'],
    });
    expect(captureFromTake(CHALLENGE, [jpeg(1)])).toEqual({
      challengeId: CHALLENGE,
      image: '/9j/quadro1',
      frames: [],
    });
  });

  it('Verify sends the challenge and each picture once: cpf, image, uf and local of the specification, and the other frames', async () => {
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
      capture: captureFromTake(CHALLENGE, [jpeg(1), jpeg(2), jpeg(3), jpeg(4)]),
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      cpf: '52998224725',
      challengeId: CHALLENGE,
      image: '/9j/quadro1',
      frames: ['/9j/quadro2', '/9j/quadro3', '/9j/quadro4'],
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    expect(body.frames).not.toContain(body.image);
    expect(typeof body.deviceId).toBe('string');
  });

  it('Create enrols from a live take: the challenge, image and frames (no photo list)', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ cpf: '52998224725' }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await enrolFace({
      cpf: '52998224725',
      capture: captureFromTake(CHALLENGE, [jpeg(1), jpeg(2), jpeg(3), jpeg(4)]),
      uf: 'DF',
      local: null,
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/api\/BiopassID\/Create$/);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      cpf: '52998224725',
      challengeId: CHALLENGE,
      image: '/9j/quadro1',
      frames: ['/9j/quadro2', '/9j/quadro3', '/9j/quadro4'],
    });
    expect(body).not.toHaveProperty('images');
  });
});
