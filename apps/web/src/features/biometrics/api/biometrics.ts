/** Face enrolment and verification calls (spec 7: `api/BiopassID/Create`, `api/BiopassID/Verify`). */
import type { EnrolResponse, VerifyResponse } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Capture } from '../../../lib/face-capture';
import { getDeviceId } from '../../../lib/storage';

export type { VerifyResponse };

export function verifyFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  return api.post<VerifyResponse>('api/BiopassID/Verify', {
    cpf: input.cpf,
    image: input.capture.image,
    frames: input.capture.frames,
    uf: input.uf,
    local: input.local,
    deviceId: getDeviceId(),
  });
}

export function enrolFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  return api.post<EnrolResponse>('api/BiopassID/Create', {
    cpf: input.cpf,
    images: [input.capture.image],
    uf: input.uf,
    local: input.local,
  });
}

export function enrolmentQuery(cpf: string) {
  return queryOptions({
    queryKey: ['biometrics', 'enrolment', cpf],
    queryFn: ({ signal }) =>
      api.get<{ cpf: string; enrolledAt: string; captures: Array<{ url: string }> }>(
        `api/BiopassID/${cpf}`,
        {
          signal,
        },
      ),
    retry: false,
  });
}
