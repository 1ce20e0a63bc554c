/** The facts of an exam in a grid of fields: the exam page and the audit show the same ones. */
import { SimpleGrid } from '@mantine/core';
import { EXAM_RESULT_LABELS, type Exam, type ExamResult } from '@exame/shared';
import dayjs from 'dayjs';
import { Field } from './field';

const when = (value: string | null) => (value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—');

export function ExamFacts({
  exam,
  cpf,
}: {
  exam: Exam;
  /** The CPF as this screen may show it. */ cpf: string;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Field label="CPF">{cpf}</Field>
      <Field label="RENACH">{exam.candidateRenach ?? '—'}</Field>
      <Field label="Data agendada">{when(exam.schedulingDate)}</Field>
      <Field label="Posto">{exam.schedulingLocalName ?? exam.schedulingLocal ?? '—'}</Field>
      <Field label="Sala / estação">
        {[exam.room, exam.station].filter(Boolean).join(' · ') || '—'}
      </Field>
      <Field label="Início / fim">
        {when(exam.startedAt)} · {when(exam.finishedAt)}
      </Field>
      <Field label="Resultado">
        {exam.result ? (EXAM_RESULT_LABELS[exam.result as ExamResult] ?? exam.result) : '—'}
      </Field>
      <Field label="Nota">{exam.score === null ? '—' : exam.score.toLocaleString('pt-BR')}</Field>
    </SimpleGrid>
  );
}
