/**
 * The matches of a case: for each pair of exams of different CPFs, the two
 * closest captures side by side with their similarity, each beside its
 * candidate's reference photo. The similarity explains why the case opened;
 * it decides nothing.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FraudCaseExam, FraudCaseMatch } from '@exame/shared';
import { CasePhoto, formatMoment, formatPercent } from './fraud-case-parts';

function MatchSide({
  exam,
  examId,
  capture,
}: {
  exam: FraudCaseExam | undefined;
  examId: string;
  capture: FraudCaseMatch['captureA'];
}) {
  const name = exam?.candidateName ?? `exame ${examId}`;
  return (
    <Stack gap={6} style={{ minWidth: 0 }}>
      <Text size="sm" fw={600}>
        {name}
        {exam && (
          <Text span size="xs" c="dimmed" fw={400}>
            {' '}
            · {formatMoment(exam.schedulingDate)}
          </Text>
        )}
      </Text>
      <SimpleGrid cols={2} spacing="xs">
        <Stack gap={2}>
          <CasePhoto
            photo={capture}
            alt={
              capture
                ? `Captura do exame de ${name} em ${formatMoment(capture.capturedAt)}`
                : `Captura do exame de ${name}`
            }
            missing="Sem captura"
          />
          <Text size="xs" c="dimmed">
            Captura
          </Text>
        </Stack>
        <Stack gap={2}>
          <CasePhoto
            photo={exam?.reference ?? null}
            alt={`Foto de referência de ${name}`}
            missing="Sem foto de referência"
          />
          <Text size="xs" c="dimmed">
            Referência
          </Text>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

export function FraudCaseMatches({
  matches,
  exams,
}: {
  matches: readonly FraudCaseMatch[];
  exams: readonly FraudCaseExam[];
}) {
  if (matches.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nenhuma comparação registrada neste caso.
      </Text>
    );
  }
  const byId = new Map(exams.map((exam) => [exam.examId, exam]));
  return (
    <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {matches.map((match) => {
        const a = byId.get(match.examA);
        const b = byId.get(match.examB);
        const title = `${a?.candidateName ?? match.examA} e ${b?.candidateName ?? match.examB}`;
        return (
          <Paper
            key={`${match.examA}-${match.examB}`}
            component="li"
            withBorder
            radius="md"
            p="sm"
            data-testid="fraud-case-match"
          >
            <Group justify="space-between" gap="xs" mb="xs">
              <Title order={4} size="h6">
                {title}
              </Title>
              <Badge color="dark" variant="light" tt="none">
                Semelhança {formatPercent(match.similarity)}
              </Badge>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <MatchSide exam={a} examId={match.examA} capture={match.captureA} />
              <MatchSide exam={b} examId={match.examB} capture={match.captureB} />
            </SimpleGrid>
          </Paper>
        );
      })}
    </Stack>
  );
}
