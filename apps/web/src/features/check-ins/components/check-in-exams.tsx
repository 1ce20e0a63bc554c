/**
 * The exams of a check-in record's post on its day, page by page (refreshed
 * every minute), on the examiner's room screen and in the ADMIN and AUDITOR
 * detail: a table on a wide screen, a list of cards on a narrow one (a phone,
 * a tablet), so that nothing scrolls sideways and no scheduling id breaks.
 */
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import {
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  type CheckInExam,
  type CheckInRecord,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { ListPage, usePaging } from '../../../components/list-page';
import { PaginationFooter } from '../../../components/pagination-footer';
import { QueryContent } from '../../../components/query-content';
import { useNarrowScreen } from '../../../lib/use-narrow-screen';
import { checkInExamsQuery } from '../api/check-ins';
import { formatTime } from './check-in-parts';
import { ExamCardHead } from '../../../components/exam-card-head';
import { CardGrid, ListCard } from '../../../components/list-card';

const TITLE = 'Exames do posto no dia';
const EMPTY = 'Nenhum exame agendado neste posto no dia da entrada.';
const NOUN = ['exame', 'exames'] as const;

const whereOf = (exam: CheckInExam) => [exam.room, exam.station].filter(Boolean).join(' · ') || '—';

function StatusBadge({ exam }: { exam: CheckInExam }) {
  return (
    <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
      {EXAM_STATUS_LABELS[exam.status]}
    </Badge>
  );
}

export function CheckInExams({ record }: { record: CheckInRecord }) {
  const narrow = useNarrowScreen();
  const paging = usePaging(20);
  const exams = useQuery(checkInExamsQuery(record.id, paging.page, paging.pageSize));
  if (narrow) {
    return (
      <Stack gap="sm">
        <Text fw={600} component="h3" m={0}>
          {TITLE}
        </Text>
        <QueryContent
          query={exams}
          loadingLabel="Carregando exames do dia"
          isEmpty={(page) => page.items.length === 0}
          empty={EMPTY}
          compact
        >
          {(page) => (
            <CardGrid label={TITLE} data-testid="check-in-exams">
              {page.items.map((exam) => (
                <ListCard key={exam.id} radius="md" p="sm">
                  <Stack gap={4}>
                    <ExamCardHead
                      name={exam.candidateName}
                      cpf={exam.cpf}
                      time={formatTime(exam.schedulingDate)}
                    />
                    <Group gap="xs">
                      <StatusBadge exam={exam} />
                      <Text size="sm">
                        {exam.result ? EXAM_RESULT_LABELS[exam.result] : 'Sem resultado'}
                      </Text>
                    </Group>
                    <Text size="sm">
                      <Text span c="dimmed" inherit>
                        Sala / estação:{' '}
                      </Text>
                      {whereOf(exam)}
                    </Text>
                    <Text size="sm">
                      <Text span c="dimmed" inherit>
                        Agendamento:{' '}
                      </Text>
                      {/* The id goes to the next line whole; it breaks only if wider than the card. */}
                      <Text
                        span
                        inherit
                        style={{
                          display: 'inline-block',
                          maxWidth: '100%',
                          overflowWrap: 'anywhere',
                        }}
                      >
                        {exam.schedulingId}
                      </Text>
                    </Text>
                  </Stack>
                </ListCard>
              ))}
            </CardGrid>
          )}
        </QueryContent>
        {exams.data && (
          <PaginationFooter
            total={exams.data.total}
            page={paging.page}
            pageSize={paging.pageSize}
            noun={NOUN}
            onPage={paging.setPage}
            onPageSize={paging.setPageSize}
          />
        )}
      </Stack>
    );
  }
  return (
    <ListPage
      embedded
      header={
        <Text fw={600} component="h3" m={0}>
          {TITLE}
        </Text>
      }
      query={exams}
      loadingLabel="Carregando exames do dia"
      empty={EMPTY}
      paging={paging}
      noun={NOUN}
      columns={[
        'Horário',
        'Agendamento',
        'Candidato',
        'CPF',
        'Sala / estação',
        'Situação',
        'Resultado',
      ]}
      minWidth={820}
      table={{ 'data-testid': 'check-in-exams' }}
      row={(exam) => (
        <>
          <Table.Td>{formatTime(exam.schedulingDate)}</Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{exam.schedulingId}</Table.Td>
          <Table.Td>{exam.candidateName}</Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{exam.cpf}</Table.Td>
          <Table.Td>{whereOf(exam)}</Table.Td>
          <Table.Td>
            <StatusBadge exam={exam} />
          </Table.Td>
          <Table.Td>{exam.result ? EXAM_RESULT_LABELS[exam.result] : '—'}</Table.Td>
        </>
      )}
    />
  );
}
