/** The audit calls (`api/Audit`); query keys live here only. */
import {
  auditorAlertSchema,
  type AuditClaim,
  type AuditConfirmationInput,
  type AuditDecisionInput,
  type AuditDecisionResult,
  type AuditDetail,
  type AuditorAlert,
  type AuditQueuePage,
  type DisqualificationReasonPage,
  type MyAudit,
  type MyPhotoAudit,
  type PhotoVerdict,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';

export type AuditQueueParams = {
  page: number;
  pageSize: number;
  schedulingLocal: string | null;
  startDate: string | null;
  endDate: string | null;
  withOccurrences: boolean;
  onlyFree: boolean;
  stage: 'all' | 'decision' | 'confirmation';
  sort: 'oldest' | 'similarity';
};

export const auditKeys = {
  all: ['audits'] as const,
  queue: (params: AuditQueueParams) => ['audits', 'queue', params] as const,
  detail: (examId: string) => ['audits', 'detail', examId] as const,
  mine: ['audits', 'mine'] as const,
  photoMine: ['audits', 'photo-mine'] as const,
  reasons: ['audits', 'reasons'] as const,
};

export function auditQueueQuery(params: AuditQueueParams) {
  return queryOptions({
    queryKey: auditKeys.queue(params),
    queryFn: ({ signal }) =>
      api.get<AuditQueuePage>('api/Audit/queue', {
        signal,
        query: {
          page: params.page,
          pageSize: params.pageSize,
          schedulingLocal: params.schedulingLocal ?? undefined,
          startDate: params.startDate ?? undefined,
          endDate: params.endDate ?? undefined,
          withOccurrences: params.withOccurrences ? 'true' : undefined,
          onlyFree: params.onlyFree ? 'true' : undefined,
          stage: params.stage,
          sort: params.sort,
        },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function auditDetailQuery(examId: string) {
  return queryOptions({
    queryKey: auditKeys.detail(examId),
    queryFn: ({ signal }) =>
      api.get<AuditDetail>(`api/Audit/${encodeURIComponent(examId)}`, { signal }),
  });
}

export const myAuditQuery = queryOptions({
  queryKey: auditKeys.mine,
  queryFn: ({ signal }) => api.get<MyAudit>('api/Audit/mine', { signal }),
});

export const myPhotoAuditQuery = queryOptions({
  queryKey: auditKeys.photoMine,
  queryFn: ({ signal }) => api.get<MyPhotoAudit>('api/Audit/photo-audits/mine', { signal }),
});

/** The unit's active disqualification reasons, the choice of the disqualify dialog. */
export const activeReasonsQuery = queryOptions({
  queryKey: auditKeys.reasons,
  queryFn: ({ signal }) =>
    api.get<DisqualificationReasonPage>('api/DisqualificationReason', {
      signal,
      query: { page: 1, pageSize: 100, onlyActive: 'true' },
    }),
  staleTime: 5 * 60_000,
});

export const claimExam = (examId: string) => api.post<AuditClaim>(`api/Audit/${examId}/claim`);
export const releaseClaim = (examId: string) => api.post<null>(`api/Audit/${examId}/release`);
export const decideExam = (examId: string, input: AuditDecisionInput) =>
  api.post<AuditDecisionResult>(`api/Audit/${examId}/decision`, input);
export const confirmDecision = (examId: string, input: AuditConfirmationInput) =>
  api.post<AuditDecisionResult>(`api/Audit/${examId}/confirmation`, input);
export const reopenDecision = (examId: string, reason: string) =>
  api.post<AuditDecisionResult>(`api/Audit/${examId}/reopen`, { reason });
export const markPhoto = (examId: string, photoId: string, verdict: PhotoVerdict) =>
  api.put<{ verdict: PhotoVerdict; auditorName: string; markedAt: string }>(
    `api/Audit/${examId}/photos/${photoId}/mark`,
    { verdict },
  );

/** The auditor alert an answer carries (another auditor holds the exam), if any. */
export function auditorAlertOf(error: unknown): AuditorAlert | null {
  if (!(error instanceof ApiError) || error.code !== 'AUDIT_CLAIMED_BY_OTHER') return null;
  const parsed = auditorAlertSchema.safeParse(error.alert);
  return parsed.success ? parsed.data : null;
}
