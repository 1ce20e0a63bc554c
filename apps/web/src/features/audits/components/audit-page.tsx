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
import { Anchor, Badge, Button, Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPhotoCheck } from '@tabler/icons-react';
import { STATION_STATUS_LABELS, stationStatusOf } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { STATION_STATUS_LOOK, StationStatusIcon } from '../../../components/station-status';
import { toast } from '../../../components/toast';
import { appStore } from '../../../lib/app-store';
import { auditDetailQuery, auditKeys, releaseClaim } from '../api/audits';
import { useAuditClaim } from '../use-audit-claim';
import { ExamTimeline } from './audit-history';
import { CaptureGrid, ReferencePhoto } from './audit-photos';
import { ExamFacts } from '../../../components/exam-facts';
import { OccurrencesCard } from '../../../components/occurrences-card';
import { AuditFraudCases } from './audit-fraud-cases';
import { ClaimLine } from './claim-line';
import { DecisionPanel } from './decision-panel';
import { SectionCard } from '../../../components/section-card';

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
              <AuditFraudCases cases={data.fraudCases} />
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
                  <SectionCard title="Candidato e prova">
                    <ExamFacts exam={exam} cpf={exam.candidateCpf} />
                  </SectionCard>
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 5 }}>
                  <SectionCard title="Linha do tempo">
                    <ExamTimeline history={data.history} />
                  </SectionCard>
                </Grid.Col>
              </Grid>
              <OccurrencesCard occurrences={data.occurrences} />
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
