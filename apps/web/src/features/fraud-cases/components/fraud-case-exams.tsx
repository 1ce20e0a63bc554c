/**
 * The exams of a case, one card each: who (name, masked CPF, reference
 * photo), when and where, who was on duty in the room, the exam's status and
 * whether it waits in the audit queue; a link to the exam's page.
 */
import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { maskCpf, STATION_STATUS_LABELS, stationStatusOf, type FraudCaseExam } from '@exame/shared';
import { Link } from 'react-router';
import { CardEntry, CardFacts, CardGrid, ListCard } from '../../../components/list-card';
import { STATION_STATUS_LOOK, StationStatusIcon } from '../../../components/station-status';
import { CasePhoto, formatMoment } from './fraud-case-parts';

function ExamStatus({ exam }: { exam: FraudCaseExam }) {
  const status = stationStatusOf({ status: exam.status, result: exam.result });
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <StationStatusIcon status={status} size={20} decorative />
      <Badge color={STATION_STATUS_LOOK[status].color} variant="light">
        {STATION_STATUS_LABELS[status]}
      </Badge>
    </Group>
  );
}

export function FraudCaseExamCard({ exam }: { exam: FraudCaseExam }) {
  return (
    <ListCard radius="md" p="sm" data-testid="fraud-case-exam">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <div style={{ width: 96, flexShrink: 0 }}>
          <CasePhoto
            photo={exam.reference}
            alt={`Foto de referência de ${exam.candidateName}`}
            missing="Sem foto de referência"
          />
        </div>
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={4} size="h6">
            {exam.candidateName}
          </Title>
          <Text size="xs" c="dimmed">
            CPF <span style={{ whiteSpace: 'nowrap' }}>{maskCpf(exam.candidateCpf)}</span> ·
            Agendamento {exam.schedulingId}
          </Text>
          <Group gap="xs">
            <ExamStatus exam={exam} />
            {exam.inAuditQueue && (
              <Badge color="indigo" variant="light" tt="none">
                Na fila de auditoria
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
      <CardFacts cols={{ base: 1, xs: 2 }} mb="xs">
        <CardEntry label="Data">{formatMoment(exam.schedulingDate)}</CardEntry>
        <CardEntry label="Posto">
          {exam.schedulingLocalName ?? exam.schedulingLocal ?? '—'}
        </CardEntry>
        <CardEntry label="Sala">{exam.room ?? '—'}</CardEntry>
        <CardEntry label="Examinadores na sala">
          {exam.examiners.length ? exam.examiners.join(', ') : 'Nenhum registrado'}
        </CardEntry>
      </CardFacts>
      <Anchor component={Link} to={`/exames/${encodeURIComponent(exam.schedulingId)}`} size="sm">
        Abrir o exame de {exam.candidateName}
      </Anchor>
    </ListCard>
  );
}

export function FraudCaseExams({ exams }: { exams: readonly FraudCaseExam[] }) {
  return (
    <CardGrid label="Exames do caso" spacing="sm">
      {exams.map((exam) => (
        <FraudCaseExamCard key={exam.examId} exam={exam} />
      ))}
    </CardGrid>
  );
}
