/** The audit's decision panel: the decision form, the note modal of a disqualification or reopening, and the confirmation by a second auditor. */
import { Alert, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconGavel } from '@tabler/icons-react';
import {
  EXAM_RESULT_LABELS,
  auditConfirmationInputSchema,
  auditReopenInputSchema,
  type AuditDetail,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import {
  activeReasonsQuery,
  auditKeys,
  confirmDecision,
  decideExam,
  reopenDecision,
} from '../api/audits';
import { DecisionSummary } from './audit-history';
import dayjs from 'dayjs';
import { resultLabel } from './claim-line';

/** The first pt-BR message of a shared schema's check, or null when it passes. */
const issueOf = (
  result: { success: true } | { success: false; error: { issues: Array<{ message: string }> } },
) => (result.success ? null : (result.error.issues[0]?.message ?? null));

function NoteModal({
  opened,
  title,
  label,
  description,
  confirmLabel,
  validate,
  saving,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  label: string;
  description: string;
  confirmLabel: string;
  /** The pt-BR message that refuses the text, or null. */
  validate: (text: string) => string | null;
  saving: boolean;
  onClose: () => void;
  onConfirm: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <AppModal opened={opened} onClose={onClose} title={title} width="480px">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const problem = validate(text);
          if (problem) {
            setError(problem);
            return;
          }
          onConfirm(text.trim());
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={label}
            description={description}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            autosize
            minRows={3}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={saving}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}

export function DecisionPanel({
  detail,
  holding,
  examId,
}: {
  detail: AuditDetail;
  holding: boolean;
  examId: string;
}) {
  const role = useAppState((state) => state.user?.roleDescription);
  const imageAlerts = useAppState((state) => state.imageAlerts);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const reasons = useQuery({ ...activeReasonsQuery, enabled: role === 'auditor' });
  const [dialog, setDialog] = useState<'reject' | 'reopen' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: auditKeys.all });
  const done = (message: string) => {
    toast.success(message);
    setDialog(null);
    void refresh();
  };
  const failed = (error: Error) => {
    toast.error(error.message);
    void refresh();
  };
  const decide = useMutation({
    mutationFn: (input: Parameters<typeof decideExam>[1]) => decideExam(examId, input),
    onSuccess: (result) =>
      done(
        result.state === 'effective'
          ? `Resultado registrado: ${EXAM_RESULT_LABELS[result.outcome]}.`
          : `Decisão registrada (${EXAM_RESULT_LABELS[result.outcome]}): aguarda a confirmação de outro auditor.`,
      ),
    onError: failed,
  });
  const confirm = useMutation({
    mutationFn: (input: { accept: boolean; note?: string }) => confirmDecision(examId, input),
    onSuccess: (result) =>
      done(
        result.state === 'effective'
          ? `Decisão confirmada: ${EXAM_RESULT_LABELS[result.outcome]}.`
          : 'Decisão não confirmada: o exame voltou à fila de auditoria.',
      ),
    onError: failed,
  });
  const reopen = useMutation({
    mutationFn: (reason: string) => reopenDecision(examId, reason),
    onSuccess: () => done('Decisão reaberta: o exame voltou à fila de auditoria.'),
    onError: failed,
  });

  const { exam, current } = detail;
  const pending = exam.status === 'done' && exam.result === 'in_analysis';
  const reasonOptions = (reasons.data?.items ?? []).map((reason) => ({
    value: reason.id,
    label: `${reason.code} — ${reason.text}`,
  }));

  const askRelease = () => {
    const outcome = detail.releaseOutcome;
    if (!outcome) return;
    showAlert({
      icon: 'info',
      title: 'Liberar o resultado',
      message: `O resultado do exame será liberado como <b>${EXAM_RESULT_LABELS[outcome]}</b> (nota ${exam.score?.toLocaleString('pt-BR') ?? '—'}).`,
      actions: [
        { label: 'Cancelar' },
        { label: 'Liberar', onClick: () => decide.mutate({ action: 'release' }) },
      ],
    });
  };
  const askDisqualify = () => {
    showAlert({
      icon: 'warning',
      title: 'Desclassificar o exame',
      message: detail.twoPersonRule
        ? 'Escolha o motivo e descreva o que foi observado. A desclassificação só vale depois da confirmação de outro auditor.'
        : 'Escolha o motivo e descreva o que foi observado.',
      width: '480px',
      disqualificationReasons: reasonOptions,
      actions: [
        { label: 'Cancelar' },
        {
          label: 'Desclassificar',
          color: 'red',
          requiresDisqualificationReason: true,
          onClick: ({ reason, note }) =>
            decide.mutate({ action: 'disqualify', reasonId: reason, note }),
        },
      ],
    });
  };
  const askConfirm = () => {
    if (!current) return;
    showAlert({
      icon: 'info',
      title: 'Confirmar a decisão',
      message: `Confirmar <b>${EXAM_RESULT_LABELS[current.outcome]}</b>, decidido por ${current.auditorName}? O resultado passa a valer.`,
      actions: [
        { label: 'Cancelar' },
        { label: 'Confirmar', onClick: () => confirm.mutate({ accept: true }) },
      ],
    });
  };

  const busy = decide.isPending || confirm.isPending;
  let actions: ReactNode = null;
  if (role === 'auditor' && pending && holding && !current) {
    actions = (
      <Group>
        <Button
          onClick={askRelease}
          disabled={!detail.releaseOutcome || busy}
          title={detail.releaseOutcome ? undefined : 'O exame não tem nota.'}
        >
          {detail.releaseOutcome
            ? `Liberar resultado (${EXAM_RESULT_LABELS[detail.releaseOutcome]})`
            : 'Liberar resultado (sem nota)'}
        </Button>
        <Button color="red" variant="light" onClick={askDisqualify} disabled={busy}>
          Desclassificar
        </Button>
      </Group>
    );
  } else if (role === 'auditor' && current?.state === 'awaiting_confirmation') {
    actions = current.mine ? (
      <Text size="sm" c="dimmed">
        Você tomou esta decisão: outro auditor precisa confirmá-la.
      </Text>
    ) : holding ? (
      <Group>
        <Button onClick={askConfirm} disabled={busy}>
          Confirmar decisão
        </Button>
        <Button variant="default" onClick={() => setDialog('reject')} disabled={busy}>
          Não confirmar
        </Button>
      </Group>
    ) : null;
  } else if (role === 'ADMIN' && current?.state === 'effective') {
    actions = (
      <Button variant="default" onClick={() => setDialog('reopen')}>
        Reabrir decisão
      </Button>
    );
  }

  return (
    <Card withBorder radius="md" padding="lg" data-testid="decision-panel">
      <Group gap="xs" mb="sm">
        <IconGavel size={18} aria-hidden />
        <Title order={3} size="h5">
          Decisão
        </Title>
      </Group>
      <Stack gap="sm">
        {imageAlerts.length > 0 && (
          <Alert
            color="red"
            variant="light"
            title="Capturas incompatíveis"
            data-testid="image-alerts"
          >
            <Stack gap={2}>
              {imageAlerts.map((alert) => (
                <Text size="sm" key={alert.photoId}>
                  Captura de {dayjs(alert.capturedAt).format('DD/MM/YYYY HH:mm:ss')} marcada
                  incompatível com a referência por {alert.auditorName}.
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        {current ? (
          <>
            <Text size="sm" fw={600}>
              {current.state === 'effective'
                ? 'Decisão em vigor'
                : 'Decisão aguardando a confirmação de outro auditor'}
            </Text>
            <DecisionSummary decision={current} />
          </>
        ) : pending ? (
          <Text size="sm">
            Aguardando decisão. A nota do exame é{' '}
            {exam.score === null ? 'desconhecida' : exam.score.toLocaleString('pt-BR')}; a
            semelhança facial só ordena e explica: nunca desclassifica sozinha.
            {detail.twoPersonRule &&
              ' Regra de duas pessoas: uma desclassificação só vale depois da confirmação de outro auditor.'}
          </Text>
        ) : (
          <Text size="sm">
            Resultado: {resultLabel(exam.result) ?? 'sem resultado'} (sem decisão de auditoria em
            vigor).
          </Text>
        )}
        {actions}
        {detail.decisions.length > (current ? 1 : 0) && (
          <Stack gap="xs" mt="sm">
            <Text size="sm" fw={600}>
              Histórico de decisões
            </Text>
            {detail.decisions
              .filter((decision) => decision.id !== current?.id)
              .map((decision) => (
                <DecisionSummary key={decision.id} decision={decision} />
              ))}
          </Stack>
        )}
      </Stack>
      <NoteModal
        opened={dialog === 'reject'}
        title="Não confirmar a decisão"
        label="Por que a decisão não é confirmada"
        description="O exame volta à fila de auditoria para uma nova decisão."
        confirmLabel="Não confirmar"
        validate={(note) =>
          issueOf(auditConfirmationInputSchema.safeParse({ accept: false, note }))
        }
        saving={confirm.isPending}
        onClose={() => setDialog(null)}
        onConfirm={(note) => confirm.mutate({ accept: false, note })}
      />
      <NoteModal
        opened={dialog === 'reopen'}
        title="Reabrir a decisão"
        label="Motivo da reabertura"
        description="A decisão fica no histórico e o exame volta à fila de auditoria."
        confirmLabel="Reabrir"
        validate={(reason) => issueOf(auditReopenInputSchema.safeParse({ reason }))}
        saving={reopen.isPending}
        onClose={() => setDialog(null)}
        onConfirm={(reason) => reopen.mutate(reason)}
      />
    </Card>
  );
}
