/**
 * Opening an exam to audit it claims it (`load_audit`): the auditor holds it
 * for the configured time and is the only one who may judge it. When another
 * auditor holds it, the auditor alert says who (and who worked on it); the
 * screen stays open to read. The claimed exam is remembered under the keys
 * of spec 3 (`auditorCpf`, `schedulingId`), cleared on logout.
 */
import type { AuditClaim, AuditorAlert } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { useAppState } from '../../lib/app-store';
import { STORAGE_KEYS, writeString } from '../../lib/storage';
import { auditKeys, auditorAlertOf, claimExam } from './api/audits';
import { useAuditorAlert } from './components/auditor-alert';

export type ClaimState =
  | { kind: 'reading' }
  | { kind: 'claiming' }
  | { kind: 'holding'; claim: AuditClaim }
  | { kind: 'held-by-other'; alert: AuditorAlert }
  | { kind: 'closed'; message: string }
  | { kind: 'failed'; message: string };

export function useAuditClaim(examId: string): { state: ClaimState; claimAgain: () => void } {
  const user = useAppState((state) => state.user);
  const isAuditor = user?.roleDescription === 'auditor';
  const queryClient = useQueryClient();
  const showAuditorAlert = useAuditorAlert();
  const [state, setState] = useState<ClaimState>(
    isAuditor ? { kind: 'claiming' } : { kind: 'reading' },
  );
  const claim = useMutation({
    mutationFn: () => claimExam(examId),
    onSuccess: (claimed) => {
      if (user) writeString(STORAGE_KEYS.auditorCpf, user.cpf);
      writeString(STORAGE_KEYS.schedulingId, claimed.schedulingId);
      setState({ kind: 'holding', claim: claimed });
      void queryClient.invalidateQueries({ queryKey: auditKeys.detail(examId) });
    },
    onError: (error) => {
      const alert = auditorAlertOf(error);
      if (alert) {
        setState({ kind: 'held-by-other', alert });
        showAuditorAlert(alert);
      } else if (error instanceof ApiError && error.code === 'AUDIT_NOT_PENDING') {
        setState({ kind: 'closed', message: error.message });
      } else {
        setState({ kind: 'failed', message: error.message });
      }
    },
  });
  const claimed = useRef<string | null>(null);
  const { mutate } = claim;
  useEffect(() => {
    if (!isAuditor || claimed.current === examId) return;
    claimed.current = examId;
    setState({ kind: 'claiming' });
    mutate();
  }, [examId, isAuditor, mutate]);
  return {
    state,
    claimAgain: () => {
      if (!isAuditor) return;
      setState({ kind: 'claiming' });
      mutate();
    },
  };
}
