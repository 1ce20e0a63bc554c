/**
 * The one write path of exams by schedulingId (integration API and CSV
 * import): new exams created, known ones changed through the state machine,
 * all or nothing, each with its history row and its notice.
 */
import { EXAM_ERRORS, type IntegrationExam } from '@exame/shared';
import type { Executor } from '../../db/client';
import { AppError, type ErrorDetail } from '../../lib/app-error';
import {
  examsAwaitingAuditConfirmation,
  findExamsForUpdate,
  insertExam,
  insertHistory,
  type ExamRow,
} from './exams.repository';
import type { ExamWriter } from './exams.service';
import { planChange, publishExamChanges, writeExamChange } from './exam-changes.service';

function fieldsOf(input: IntegrationExam) {
  return {
    candidateName: input.candidate.name,
    candidateCpf: input.candidate.cpf,
    candidateRenach: input.candidate.renach ?? null,
    schedulingDate: new Date(input.schedulingDate),
    schedulingLocal: input.metadata?.schedulingLocal ?? null,
    pendingAudit: input.metadata?.pendingAudit ?? 0,
    absence: input.metadata?.absence ?? 0,
    interrupted: input.metadata?.interrupted ?? 0,
    room: input.room ?? null,
    station: input.station ?? null,
  };
}

function sameFields(row: ExamRow, fields: ReturnType<typeof fieldsOf>): boolean {
  return (
    row.candidateName === fields.candidateName &&
    row.candidateCpf === fields.candidateCpf &&
    row.candidateRenach === fields.candidateRenach &&
    row.schedulingDate.getTime() === fields.schedulingDate.getTime() &&
    row.schedulingLocal === fields.schedulingLocal &&
    row.pendingAudit === fields.pendingAudit &&
    row.absence === fields.absence &&
    row.interrupted === fields.interrupted &&
    row.room === fields.room &&
    row.station === fields.station
  );
}

/**
 * Creates or updates exams by schedulingId, in the caller's transaction.
 * Idempotent: sending the same batch again changes nothing. All or nothing:
 * the first problem found in any item rejects the whole batch, listing every
 * problem.
 */
export async function upsertExams(
  deps: { tx: Executor },
  writer: ExamWriter,
  input: { exams: IntegrationExam[]; createOnly?: boolean },
): Promise<{ created: number; updated: number; unchanged: number }> {
  const { tx } = deps;
  const { federativeUnit: unit, source, actorId } = writer;
  const items = input.exams;
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const previous = seen.get(item.schedulingId);
    if (previous !== undefined) {
      problems.push({
        path: `exams.${index}.schedulingId`,
        message: `schedulingId ${item.schedulingId} repetido (também no item ${previous + 1}).`,
      });
    }
    seen.set(item.schedulingId, index);
  });
  const existing = new Map(
    (await findExamsForUpdate(tx, unit, [...seen.keys()])).map((row) => [row.schedulingId, row]),
  );

  type Plan =
    | { kind: 'create'; item: IntegrationExam }
    | { kind: 'update'; row: ExamRow; patch: Partial<ExamRow>; statusChanged: boolean }
    | { kind: 'same' };
  const plans: Plan[] = [];
  items.forEach((item, index) => {
    const row = existing.get(item.schedulingId);
    if (!row) {
      if (item.result && item.status !== 'done') {
        problems.push({
          path: `exams.${index}.result`,
          message: EXAM_ERRORS.EXAM_RESULT_REQUIRES_DONE.message,
        });
      }
      plans.push({ kind: 'create', item });
      return;
    }
    if (input.createOnly) {
      problems.push({
        path: `exams.${index}.schedulingId`,
        message: `O agendamento ${item.schedulingId} já existe.`,
      });
      return;
    }
    const plan = planChange(row, {
      status: item.status,
      result: item.result,
      score: item.score,
      at: item.finishedAt ? new Date(item.finishedAt) : undefined,
    });
    if (!plan.ok) {
      problems.push({
        path: `exams.${index}.status`,
        message: `${item.schedulingId}: ${plan.message}`,
      });
      return;
    }
    const fields = fieldsOf(item);
    const patch = sameFields(row, fields) ? plan.patch : { ...fields, ...plan.patch };
    if (Object.keys(patch).length === 0) plans.push({ kind: 'same' });
    else
      plans.push({
        kind: 'update',
        row,
        patch,
        statusChanged: patch.status !== undefined || patch.result !== undefined,
      });
  });
  // A result whose audit decision waits for a second auditor is the audit's, not the integration's.
  const underAudit = await examsAwaitingAuditConfirmation(
    tx,
    plans.flatMap((plan) =>
      plan.kind === 'update' && plan.patch.result !== undefined ? [plan.row.id] : [],
    ),
  );
  if (underAudit.size > 0) {
    items.forEach((item, index) => {
      const row = existing.get(item.schedulingId);
      if (row && underAudit.has(row.id)) {
        problems.push({
          path: `exams.${index}.result`,
          message: `${item.schedulingId}: ${EXAM_ERRORS.EXAM_RESULT_UNDER_AUDIT.message}`,
        });
      }
    });
  }
  if (problems.length > 0) {
    const { status, message } = EXAM_ERRORS.EXAM_BATCH_REJECTED;
    throw new AppError('EXAM_BATCH_REJECTED', message, status, problems);
  }

  const counts = { created: 0, updated: 0, unchanged: 0 };
  const written: ExamRow[] = [];
  for (const plan of plans) {
    if (plan.kind === 'same') {
      counts.unchanged += 1;
    } else if (plan.kind === 'create') {
      const created = await insertExam(tx, {
        federativeUnit: unit,
        schedulingId: plan.item.schedulingId,
        ...fieldsOf(plan.item),
        status: plan.item.status,
        result: plan.item.result ?? null,
        score: plan.item.score ?? null,
        // An exam that arrives already started or finished gets the moment it arrived when none is sent.
        startedAt: plan.item.startedAt
          ? new Date(plan.item.startedAt)
          : ['started', 'done'].includes(plan.item.status)
            ? new Date()
            : null,
        finishedAt: plan.item.finishedAt
          ? new Date(plan.item.finishedAt)
          : plan.item.status === 'done'
            ? new Date()
            : null,
      });
      await insertHistory(tx, {
        examId: created.id,
        fromStatus: null,
        toStatus: created.status,
        toResult: created.result,
        source,
        actorId,
      });
      written.push(created);
      counts.created += 1;
    } else {
      written.push(
        await writeExamChange(
          tx,
          plan.row,
          plan.patch,
          { source, actorId },
          { history: plan.statusChanged },
        ),
      );
      counts.updated += 1;
    }
  }
  await publishExamChanges(tx, written);
  return counts;
}
