/**
 * `possiveis-fraudes/:id`: one case — its exams (who, where, when, who was on
 * duty, the reference photo), the matches that opened it (the two closest
 * captures side by side with their similarity), and, while it is open, the
 * actions: send its exams to the audit queue, close it. A closed case says
 * who closed it, when, how and why. The server logs each view.
 */
import { Alert, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { FRAUD_CASE_STATUS_LABELS, type FraudCaseDetail } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { SectionCard } from '../../../components/section-card';
import { useDocumentTitle } from '../../../lib/document-title';
import { fraudCaseDetailQuery } from '../api/fraud-cases';
import { FraudCaseActions } from './fraud-case-actions';
import { FraudCaseExams } from './fraud-case-exams';
import { FraudCaseMatches } from './fraud-case-matches';
import {
  formatDaySpan,
  formatMoment,
  formatPercent,
  FraudCaseStatusBadge,
} from './fraud-case-parts';

function ClosedSummary({ detail }: { detail: FraudCaseDetail }) {
  return (
    <SectionCard title="Encerramento">
      <Stack gap={4} data-testid="fraud-case-closed">
        <Text size="sm">
          Conclusão: <strong>{FRAUD_CASE_STATUS_LABELS[detail.status]}</strong>
        </Text>
        <Text size="sm">
          Encerrado por {detail.closedBy ?? 'pessoa não identificada'}
          {detail.closedAt ? ` em ${formatMoment(detail.closedAt)}` : ''}.
        </Text>
        {detail.note && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            Nota: {detail.note}
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}

function CaseHeader({ detail }: { detail: FraudCaseDetail }) {
  return (
    <Stack gap={4}>
      <Group gap="sm" align="center">
        <Title order={2}>Caso nº {detail.number}</Title>
        <FraudCaseStatusBadge status={detail.status} />
      </Group>
      <Text size="sm" c="dimmed">
        Aberto em {formatMoment(detail.createdAt)} · atualizado em {formatMoment(detail.updatedAt)}
      </Text>
      <Text size="sm">
        {detail.examCount} exames de {detail.candidateCount} CPFs, de{' '}
        {formatDaySpan(detail.firstDate, detail.lastDate)} · maior semelhança{' '}
        {formatPercent(detail.highestSimilarity)}
      </Text>
      {detail.sentToAuditAt && (
        <Text size="sm" data-testid="fraud-case-sent">
          Exames enviados à auditoria em {formatMoment(detail.sentToAuditAt)}
          {detail.sentToAuditBy ? ` por ${detail.sentToAuditBy}` : ''}.
        </Text>
      )}
    </Stack>
  );
}

export function FraudCasePage() {
  const { id = '' } = useParams();
  const detail = useQuery(fraudCaseDetailQuery(id));
  useDocumentTitle(detail.data ? `Caso nº ${detail.data.number} — Possíveis fraudes` : null);

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/possiveis-fraudes" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden /> Voltar às possíveis fraudes
        </Group>
      </Anchor>
      <QueryContent
        query={detail}
        loadingLabel="Carregando o caso"
        isEmpty={() => false}
        empty={null}
      >
        {(data) => (
          <Stack gap="md">
            <CaseHeader detail={data} />
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
              Um caso nunca muda um resultado sozinho. O motor facial encontrou o mesmo rosto em
              exames de CPFs diferentes; quem decide, exame a exame, é o auditor.
            </Alert>
            {data.status === 'open' ? (
              <FraudCaseActions detail={data} />
            ) : (
              <ClosedSummary detail={data} />
            )}
            <SectionCard title="Exames">
              <FraudCaseExams exams={data.exams} />
            </SectionCard>
            <SectionCard title="Semelhanças encontradas">
              <Text size="xs" c="dimmed" mb="sm">
                Para cada par de exames, as duas capturas mais parecidas lado a lado, cada uma ao
                lado da foto de referência do seu candidato.
              </Text>
              <FraudCaseMatches matches={data.matches} exams={data.exams} />
            </SectionCard>
          </Stack>
        )}
      </QueryContent>
    </Stack>
  );
}
