/**
 * What an auditor or ADMIN does with an open case: send its exams to the
 * audit queue (after a confirmation that says what it does), or close it as
 * confirmed or dismissed with a note. Each dialog shows the server's refusal
 * in itself; after either action the case and the list are read again.
 */
import { Alert, Button, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle, IconClipboardList, IconLock } from '@tabler/icons-react';
import {
  closeFraudCaseSchema,
  FRAUD_CASE_OUTCOMES,
  FRAUD_CASE_STATUS_LABELS,
  type CloseFraudCaseInput,
  type FraudCaseDetail,
  type FraudCaseOutcome,
  type FraudCaseSent,
} from '@exame/shared';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { submitValid, validateForm, type FieldErrors } from '../../../lib/forms';
import { closeFraudCase, fraudCaseKeys, sendFraudCaseToAudit } from '../api/fraud-cases';

function ServerError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Erro">
      {error.message}
    </Alert>
  );
}

/** "2 exames enviados à auditoria. 1 já estava na fila." */
export function sentMessage({ sent, alreadyInQueue }: FraudCaseSent): string {
  const first =
    sent === 1
      ? '1 exame enviado à auditoria.'
      : sent === 0
        ? 'Nenhum exame enviado à auditoria.'
        : `${sent} exames enviados à auditoria.`;
  if (alreadyInQueue === 0) return first;
  return alreadyInQueue === 1
    ? `${first} 1 já estava na fila.`
    : `${first} ${alreadyInQueue} já estavam na fila.`;
}

type CaseDialogProps = { detail: FraudCaseDetail; opened: boolean; onClose: () => void };

/**
 * The action of a case's dialog. Once it ends, done or refused (a refusal: a
 * case closed meanwhile, nothing to send, may mean the case changed), the
 * case and the list are read again.
 */
function useCaseAction<TResult, TInput = void>({
  mutationFn,
  onSuccess,
}: {
  mutationFn: (input: TInput) => Promise<TResult>;
  onSuccess: (result: TResult, queryClient: QueryClient) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result) => onSuccess(result, queryClient),
    onSettled: () => queryClient.invalidateQueries({ queryKey: fraudCaseKeys.all }),
  });
}

function SendToAuditModal({ detail, opened, onClose }: CaseDialogProps) {
  const send = useCaseAction({
    mutationFn: () => sendFraudCaseToAudit(detail.id),
    onSuccess: (result) => {
      toast.success(sentMessage(result));
      onClose();
    },
  });
  const close = () => {
    send.reset();
    onClose();
  };
  return (
    <AppModal opened={opened} onClose={close} title="Enviar exames à auditoria" width="480px">
      <Stack gap="sm">
        <Text size="sm">
          Os exames deste caso vão para a fila de auditoria com o caso anexado. Os resultados já
          liberados são reabertos para auditoria; os exames cancelados e os que já estão na fila
          ficam como estão.
        </Text>
        <Text size="sm">Nenhum resultado muda sem a decisão de um auditor.</Text>
        <ServerError error={send.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancelar
          </Button>
          <Button onClick={() => send.mutate()} loading={send.isPending} data-autofocus>
            Enviar à auditoria
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

type CloseForm = { outcome: FraudCaseOutcome | null; note: string };
const EMPTY_FORM: CloseForm = { outcome: null, note: '' };

function CloseCaseModal({ detail, opened, onClose }: CaseDialogProps) {
  const [form, setForm] = useState<CloseForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors<CloseFraudCaseInput>>({});
  const closing = useCaseAction({
    mutationFn: (input: CloseFraudCaseInput) => closeFraudCase(detail.id, input),
    onSuccess: (closed, queryClient) => {
      queryClient.setQueryData(fraudCaseKeys.detail(detail.id), closed);
      toast.success(
        `Caso nº ${closed.number} encerrado: ${FRAUD_CASE_STATUS_LABELS[closed.status]}.`,
      );
      finish();
    },
  });
  const finish = () => {
    setForm(EMPTY_FORM);
    setErrors({});
    closing.reset();
    onClose();
  };
  const onSubmit = submitValid(
    () =>
      validateForm(closeFraudCaseSchema, {
        outcome: form.outcome ?? undefined,
        note: form.note,
      }),
    setErrors,
    (input) => closing.mutate(input),
  );
  return (
    <AppModal opened={opened} onClose={finish} title="Encerrar caso" width="480px">
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="sm">
          <Radio.Group
            label="Conclusão"
            required
            value={form.outcome}
            onChange={(value) => {
              setForm((previous) => ({ ...previous, outcome: value as FraudCaseOutcome }));
              setErrors((previous) => ({ ...previous, outcome: undefined }));
            }}
            error={errors.outcome}
          >
            <Stack gap="xs" mt={6}>
              {FRAUD_CASE_OUTCOMES.map((outcome) => (
                <Radio key={outcome} value={outcome} label={FRAUD_CASE_STATUS_LABELS[outcome]} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label="Nota"
            description="O que foi observado e por que o caso termina assim. Fica no registro do caso."
            value={form.note}
            onChange={(event) => {
              const note = event.currentTarget.value;
              setForm((previous) => ({ ...previous, note }));
              setErrors((previous) => ({ ...previous, note: undefined }));
            }}
            error={errors.note}
            autosize
            minRows={3}
            required
          />
          <ServerError error={closing.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={finish}>
              Cancelar
            </Button>
            <Button type="submit" loading={closing.isPending}>
              Encerrar caso
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}

export function FraudCaseActions({ detail }: { detail: FraudCaseDetail }) {
  const [dialog, setDialog] = useState<'send' | 'close' | null>(null);
  const onClose = () => setDialog(null);
  return (
    <>
      <Group gap="sm">
        <Button
          leftSection={<IconClipboardList size={16} aria-hidden />}
          onClick={() => setDialog('send')}
        >
          Enviar exames à auditoria
        </Button>
        <Button
          variant="default"
          leftSection={<IconLock size={16} aria-hidden />}
          onClick={() => setDialog('close')}
        >
          Encerrar caso
        </Button>
      </Group>
      <SendToAuditModal detail={detail} opened={dialog === 'send'} onClose={onClose} />
      <CloseCaseModal detail={detail} opened={dialog === 'close'} onClose={onClose} />
    </>
  );
}
