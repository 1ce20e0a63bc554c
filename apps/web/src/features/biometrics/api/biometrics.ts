/** Face enrolment and verification calls (spec 7: `api/BiopassID/Create`, `api/BiopassID/Verify`). */
import type {
  Enrolment,
  EnrolRequest,
  EnrolResponse,
  VerifyRequest,
  VerifyResponse,
} from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { getDeviceId } from '../../../lib/storage';

export type { VerifyResponse };

/**
 * A capture as `api/BiopassID/Verify` takes it: `image` is the verified
 * picture and the first frame of the burst; `frames` the other frames, in
 * capture order, without `image` (each picture is sent once).
 */
export type Capture = { image: string; frames: string[] };

/**
 * The data URL of a capture without its prefix: everything up to and
 * including the first comma (`data:image/jpeg;base64,` is 23 characters, not
 * the 22 of spec 9, which counted the prefix of the old `image/jpg`).
 */
export function stripDataUrlPrefix(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

/** A burst of data URLs, in capture order, as the capture to send: the first is the verified picture. */
export function captureFromBurst(dataUrls: readonly string[]): Capture {
  const [first = '', ...others] = dataUrls.map(stripDataUrlPrefix);
  return { image: first, frames: others };
}

export function verifyFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  const body: VerifyRequest = {
    cpf: input.cpf,
    image: input.capture.image,
    frames: input.capture.frames,
    uf: input.uf,
    local: input.local,
    deviceId: getDeviceId(),
  };
  return api.post<VerifyResponse>('api/BiopassID/Verify', body);
}

export function enrolFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  const body: EnrolRequest = {
    cpf: input.cpf,
    images: [input.capture.image],
    uf: input.uf,
    local: input.local,
  };
  return api.post<EnrolResponse>('api/BiopassID/Create', body);
}

export function enrolmentQuery(cpf: string) {
  return queryOptions({
    queryKey: ['biometrics', 'enrolment', cpf],
    queryFn: ({ signal }) => api.get<Enrolment>(`api/BiopassID/${cpf}`, { signal }),
    retry: false,
  });
}
