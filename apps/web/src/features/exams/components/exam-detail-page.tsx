/** `exames/:schedulingId`: candidate, result, timeline of status changes, occurrences and photos. */
import {
  Alert,
  Anchor,
  Card,
  Center,
  Grid,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCamera } from '@tabler/icons-react';
import {
  EXAM_HISTORY_SOURCE_LABELS,
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  maskCpf,
  type ExamResult,
  type ExamStatus,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link, useParams } from 'react-router';
import { examDetailQuery } from '../api/exams';
import { ExamStatusBadge } from './exam-status';
import { ExamFacts } from '../../../components/exam-facts';
import { OccurrencesCard } from '../../../components/occurrences-card';
import { SectionCard } from '../../../components/section-card';
import { LoadingSpinner } from '../../../components/loading-spinner';

function statusLabel(value: string | null): string {
  return value ? (EXAM_STATUS_LABELS[value as ExamStatus] ?? value) : '—';
}

function resultLabel(value: string | null): string | null {
  return value ? (EXAM_RESULT_LABELS[value as ExamResult] ?? value) : null;
}

export function ExamDetailPage() {
  const { schedulingId = '' } = useParams();
  const detail = useQuery(examDetailQuery(schedulingId));

  if (detail.isPending) {
    return (
      <Center p="xl">
        <LoadingSpinner label="Carregando exame" />
      </Center>
    );
  }
  if (detail.isError) {
    return (
      <Stack>
        <Anchor component={Link} to="/exames">
          <Group gap={4}>
            <IconArrowLeft size={16} /> Voltar aos exames
          </Group>
        </Anchor>
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Erro">
          {detail.error.message}
        </Alert>
      </Stack>
    );
  }
  const { exam, history, occurrences, photos } = detail.data;
  const data = detail.data;
  const format = (value: string | null) => (value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—');

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/exames" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Voltar aos exames
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{exam.candidateName}</Title>
          <Text c="dimmed" size="sm">
            Agendamento {exam.schedulingId}
          </Text>
        </div>
        <ExamStatusBadge exam={exam} />
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <SectionCard title="Candidato e prova">
            <ExamFacts exam={exam} cpf={maskCpf(exam.candidateCpf)} />
            <Title order={4} size="h6" mt="md" mb={4}>
              Sala e examinadores
            </Title>
            <Text size="sm" data-testid="exam-room">
              {data.room ? (
                <Link to={`/exam-room/${data.room.id}`}>{data.room.name}</Link>
              ) : (
                'Nenhuma sala cadastrada com o local deste exame.'
              )}
            </Text>
            {data.custody.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nenhum examinador registrado na sala durante o exame.
              </Text>
            ) : (
              <Stack gap={2} mt={4} data-testid="exam-custody">
                {data.custody.map((entry) => (
                  <Text size="sm" key={`${entry.checkInId}-${entry.name}-${entry.checkInDate}`}>
                    {entry.name}: entrada {format(entry.checkInDate)}
                    {entry.leftAt ? ` · saída ${format(entry.leftAt)}` : ' · ainda na sala'}
                  </Text>
                ))}
              </Stack>
            )}
          </SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <SectionCard title="Linha do tempo">
            {history.length === 0 ? (
              <Text size="sm" c="dimmed">
                Sem mudanças registradas.
              </Text>
            ) : (
              <Timeline active={history.length - 1} bulletSize={18} lineWidth={2}>
                {history.map((entry, index) => (
                  <Timeline.Item
                    key={`${entry.at}-${index}`}
                    title={`${entry.fromStatus ? `${statusLabel(entry.fromStatus)} → ` : ''}${statusLabel(entry.toStatus)}${resultLabel(entry.toResult) ? ` (${resultLabel(entry.toResult)})` : ''}`}
                  >
                    <Text size="xs" c="dimmed">
                      {format(entry.at)} ·{' '}
                      {EXAM_HISTORY_SOURCE_LABELS[entry.source] ?? entry.source}
                    </Text>
                  </Timeline.Item>
                ))}
              </Timeline>
            )}
          </SectionCard>
        </Grid.Col>
      </Grid>
      <OccurrencesCard occurrences={occurrences} />
      <Card withBorder radius="md" padding="lg">
        <Group gap="xs" mb="sm">
          <IconCamera size={18} aria-hidden />
          <Title order={3} size="h5">
            Fotos do exame
          </Title>
        </Group>
        <Group align="flex-start" gap="md" mb="sm" data-testid="exam-reference-photo">
          {data.referencePhoto ? (
            <Stack gap={4} w={160}>
              <Image
                src={data.referencePhoto.url}
                radius="sm"
                alt="Foto de referência do candidato"
              />
              <Text size="xs" c="dimmed">
                Foto de referência (cadastro do candidato)
              </Text>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              Sem foto de referência do candidato.
            </Text>
          )}
        </Group>
        {photos.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nenhuma foto capturada.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} data-testid="exam-photos">
            {photos.map((photo) => (
              <Stack key={photo.id} gap={4}>
                <Image
                  src={photo.url}
                  radius="sm"
                  alt={`Foto capturada em ${format(photo.capturedAt)}`}
                />
                <Text size="xs" c="dimmed">
                  {format(photo.capturedAt)}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
      </Card>
    </Stack>
  );
}
