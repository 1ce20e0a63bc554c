/**
 * `auditoria/:id` (spec 2): the exam as the auditor judges it — the
 * candidate, the timeline, the occurrences, the captures next to the
 * reference photo with the face engine's similarity, and the decision:
 * release the result from the score, or disqualify with a reason and a note
 * through the global alert modal (its disqualify button stays disabled until
 * both are filled). Under the two-person rule, or for an approval drawn for
 * re-check, a second auditor confirms. An ADMIN reads the exam and may
 * reopen a decision in effect, with a reason.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconFlag,
  IconGavel,
  IconPhotoCheck,
} from '@tabler/icons-react';
import {
  AUDIT_DECISION_STATE_LABELS,
  EXAM_HISTORY_SOURCE_LABELS,
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  auditConfirmationInputSchema,
  auditReopenInputSchema,
  STATION_STATUS_LABELS,
  stationStatusOf,
  type AuditDecision,
  type AuditDetail,
  type ExamResult,
  type ExamStatus,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { AppModal } from '../../../components/app-modal';
import { QueryContent } from '../../../components/query-content';
import { STATION_STATUS_LOOK, StationStatusIcon } from '../../../components/station-status';
import { toast } from '../../../components/toast';
import { appStore, useAppState } from '../../../lib/app-store';
import {
  activeReasonsQuery,
  auditDetailQuery,
  auditKeys,
  confirmDecision,
  decideExam,
  releaseClaim,
  reopenDecision,
} from '../api/audits';
import { useAuditClaim, type ClaimState } from '../use-audit-claim';
import { CaptureGrid, ReferencePhoto } from './audit-photos';
import { Field } from '../../../components/field';

const format = (value: string | null) => (value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—');
const statusLabel = (value: string | null) =>
  value ? (EXAM_STATUS_LABELS[value as ExamStatus] ?? value) : '—';
const resultLabel = (value: string | null) =>
  value ? (EXAM_RESULT_LABELS[value as ExamResult] ?? value) : null;

/** A status change, or (the status staying) the result's change: an audit decision, a reopening. */
function timelineTitle(entry: AuditDetail['history'][number]): string {
  if (entry.fromStatus === entry.toStatus && entry.fromResult !== entry.toResult) {
    return `Resultado: ${resultLabel(entry.fromResult) ?? '—'} → ${resultLabel(entry.toResult) ?? '—'}`;
  }
  const from =
    entry.fromStatus && entry.fromStatus !== entry.toStatus
      ? `${statusLabel(entry.fromStatus)} → `
      : '';
  const result = resultLabel(entry.toResult);
  return `${from}${statusLabel(entry.toStatus)}${result ? ` (${result})` : ''}`;
}

function ClaimLine({
  state,
  onRelease,
  releasing,
}: {
  state: ClaimState;
  onRelease: () => void;
  releasing: boolean;
}) {
  switch (state.kind) {
    case 'claiming':
      return <Text size="sm">Abrindo o exame para auditoria…</Text>;
    case 'holding':
      return (
        <Group gap="sm">
          <Text size="sm" data-testid="claim-state">
            Você audita este exame até {dayjs(state.claim.expiresAt).format('HH:mm')}.
          </Text>
          <Button size="xs" variant="default" onClick={onRelease} loading={releasing}>
            Devolver à fila
          </Button>
        </Group>
      );
    case 'held-by-other':
      return (
        <Alert color="yellow" icon={<IconAlertCircle size={18} />} data-testid="claim-state">
          Em auditoria por {state.alert.auditor.auditorName}: você pode ler o exame, mas não
          decidir.
        </Alert>
      );
    case 'closed':
      return (
        <Text size="sm" c="dimmed" data-testid="claim-state">
          {state.message}
        </Text>
      );
    case 'failed':
      return (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Erro">
          {state.message}
        </Alert>
      );
    default:
      return null;
  }
}

function DecisionSummary({ decision }: { decision: AuditDecision }) {
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Badge color={decision.outcome === 'disqualified' ? 'red' : 'teal'} variant="light">
          {EXAM_RESULT_LABELS[decision.outcome]}
        </Badge>
        <Badge variant="outline" color="gray">
          {AUDIT_DECISION_STATE_LABELS[decision.state]}
        </Badge>
        {decision.confirmation === 'recheck' && (
          <Badge variant="outline" color="grape">
            Reverificação
          </Badge>
        )}
        {decision.confirmation === 'two_person' && (
          <Badge variant="outline" color="indigo">
            Duas pessoas
          </Badge>
        )}
      </Group>
      <Text size="sm">
        Por {decision.auditorName} em {format(decision.decidedAt)}
      </Text>
      {decision.reason && (
        <Text size="sm">
          Motivo: {decision.reason.code} — {decision.reason.text}
        </Text>
      )}
      {decision.note && <Text size="sm">Observação: {decision.note}</Text>}
      {decision.confirmedBy && (
        <Text size="sm">
          {decision.state === 'rejected' ? 'Não confirmada' : 'Confirmada'} por{' '}
          {decision.confirmedBy} em {format(decision.confirmedAt)}
          {decision.confirmationNote ? ` — ${decision.confirmationNote}` : ''}
        </Text>
      )}
      {decision.reopenedBy && (
        <Text size="sm">
          Reaberta por {decision.reopenedBy} em {format(decision.reopenedAt)} —{' '}
          {decision.reopenReason}
        </Text>
      )}
    </Stack>
  );
}

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

function DecisionPanel({
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

export function AuditPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const { state, claimAgain } = useAuditClaim(id);
  const detail = useQuery({ ...auditDetailQuery(id), enabled: state.kind !== 'claiming' });
  const release = useMutation({
    mutationFn: () => releaseClaim(id),
    onSuccess: () => {
      toast.success('O exame voltou à fila de auditoria.');
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });
  // Spec 3 `imageAlerts`: the captures of this exam marked incompatible, with who marked them.
  const captures = detail.data?.captures;
  useEffect(() => {
    appStore.setImageAlerts(
      (captures ?? [])
        .filter((photo) => photo.mark?.verdict === 'incompatible')
        .map((photo) => ({
          photoId: photo.id,
          capturedAt: photo.capturedAt,
          auditorName: photo.mark?.auditorName ?? '',
        })),
    );
  }, [captures]);
  useEffect(() => () => appStore.setImageAlerts([]), []);
  const holding =
    state.kind === 'holding' ||
    (detail.data?.claim?.mine === true && state.kind !== 'held-by-other');

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/auditoria" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden /> Voltar à fila de auditoria
        </Group>
      </Anchor>
      <QueryContent
        query={detail}
        loadingLabel="Carregando o exame"
        isEmpty={() => false}
        empty={null}
      >
        {(data) => {
          const { exam } = data;
          const status = stationStatusOf({ status: exam.status, result: exam.result });
          return (
            <Stack gap="md">
              <Group justify="space-between" align="flex-start">
                <div>
                  <Title order={2}>Auditoria · {exam.candidateName}</Title>
                  <Text c="dimmed" size="sm">
                    Agendamento {exam.schedulingId}
                  </Text>
                </div>
                <Group gap={6}>
                  <StationStatusIcon status={status} decorative />
                  <Badge color={STATION_STATUS_LOOK[status].color} variant="light">
                    {STATION_STATUS_LABELS[status]}
                  </Badge>
                </Group>
              </Group>
              <ClaimLine
                state={
                  state.kind === 'holding' && !data.claim?.mine
                    ? { kind: 'closed', message: 'Sua auditoria deste exame terminou.' }
                    : state
                }
                onRelease={() => release.mutate()}
                releasing={release.isPending}
              />
              {state.kind === 'holding' &&
                !data.claim?.mine &&
                data.exam.result === 'in_analysis' &&
                !(data.current?.mine && data.current.state === 'awaiting_confirmation') && (
                  <Button variant="default" w="fit-content" onClick={claimAgain}>
                    Auditar novamente
                  </Button>
                )}
              <Grid>
                <Grid.Col span={{ base: 12, md: 7 }}>
                  <Card withBorder radius="md" padding="lg">
                    <Title order={3} size="h5" mb="sm">
                      Candidato e prova
                    </Title>
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                      <Field label="CPF">{exam.candidateCpf}</Field>
                      <Field label="RENACH">{exam.candidateRenach ?? '—'}</Field>
                      <Field label="Data agendada">{format(exam.schedulingDate)}</Field>
                      <Field label="Posto">
                        {exam.schedulingLocalName ?? exam.schedulingLocal ?? '—'}
                      </Field>
                      <Field label="Sala / estação">
                        {[exam.room, exam.station].filter(Boolean).join(' · ') || '—'}
                      </Field>
                      <Field label="Início / fim">
                        {format(exam.startedAt)} · {format(exam.finishedAt)}
                      </Field>
                      <Field label="Nota">
                        {exam.score === null ? '—' : exam.score.toLocaleString('pt-BR')}
                      </Field>
                      <Field label="Resultado">{resultLabel(exam.result) ?? '—'}</Field>
                    </SimpleGrid>
                  </Card>
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 5 }}>
                  <Card withBorder radius="md" padding="lg">
                    <Title order={3} size="h5" mb="sm">
                      Linha do tempo
                    </Title>
                    {data.history.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        Sem mudanças registradas.
                      </Text>
                    ) : (
                      <Timeline active={data.history.length - 1} bulletSize={16} lineWidth={2}>
                        {data.history.map((entry, index) => (
                          <Timeline.Item key={`${entry.at}-${index}`} title={timelineTitle(entry)}>
                            <Text size="xs" c="dimmed">
                              {format(entry.at)} ·{' '}
                              {EXAM_HISTORY_SOURCE_LABELS[entry.source] ?? entry.source}
                            </Text>
                          </Timeline.Item>
                        ))}
                      </Timeline>
                    )}
                  </Card>
                </Grid.Col>
              </Grid>
              <Card withBorder radius="md" padding="lg">
                <Title order={3} size="h5" mb="sm">
                  Ocorrências
                </Title>
                {data.occurrences.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Nenhuma ocorrência registrada.
                  </Text>
                ) : (
                  <Stack gap="sm" data-testid="occurrences">
                    {data.occurrences.map((occurrence) => (
                      <Group key={occurrence.id} align="flex-start" wrap="nowrap" gap="md">
                        <IconFlag size={18} aria-hidden />
                        <div style={{ flex: 1 }}>
                          <Group gap="xs">
                            <Badge variant="light" color="orange">
                              {occurrence.type}
                            </Badge>
                            <Text size="xs" c="dimmed">
                              {format(occurrence.occurredAt)}
                            </Text>
                          </Group>
                          <Text size="sm">{occurrence.description}</Text>
                        </div>
                      </Group>
                    ))}
                  </Stack>
                )}
              </Card>
              <Card withBorder radius="md" padding="lg">
                <Group justify="space-between" mb="sm">
                  <Title order={3} size="h5">
                    Foto de referência e capturas
                  </Title>
                  {data.captures.length > 0 && (
                    <Button
                      component={Link}
                      to={`/photo-audit/${exam.id}`}
                      variant="light"
                      size="xs"
                      leftSection={<IconPhotoCheck size={16} aria-hidden />}
                    >
                      Auditoria de fotos
                    </Button>
                  )}
                </Group>
                <Text size="xs" c="dimmed" mb="sm">
                  As capturas menos parecidas com a referência aparecem primeiro. A semelhança do
                  motor facial só ordena e explica: quem decide é o auditor.
                </Text>
                <Grid>
                  <Grid.Col span={{ base: 12, sm: 4, md: 3 }}>
                    <ReferencePhoto photo={data.reference} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 8, md: 9 }}>
                    <CaptureGrid captures={data.captures} threshold={data.threshold} />
                  </Grid.Col>
                </Grid>
              </Card>
              <DecisionPanel detail={data} holding={holding} examId={exam.id} />
            </Stack>
          );
        }}
      </QueryContent>
    </Stack>
  );
}
