/** The public certificate check (`api/Certificate/verify`); query keys live here only. */
import { normalizeCertificateCode, type CertificateCheck } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const certificateKeys = {
  check: (code: string, schedulingId: string | null) =>
    ['certificates', 'check', normalizeCertificateCode(code), schedulingId] as const,
};

export function certificateCheckQuery(code: string, schedulingId: string | null) {
  return queryOptions({
    queryKey: certificateKeys.check(code, schedulingId),
    queryFn: ({ signal }) =>
      api.get<CertificateCheck>(`api/Certificate/verify/${encodeURIComponent(code)}`, {
        signal,
        query: { schedulingId: schedulingId ?? undefined },
      }),
    retry: false,
    staleTime: 60_000,
  });
}
