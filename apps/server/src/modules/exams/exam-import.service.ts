/**
 * `POST api/Exam/import`: scheduled exams from a CSV, all or nothing. Every
 * problem of the file (its own and agendamentos already stored) is reported at
 * once, in file order, and nothing is written unless there is none. The import
 * and its activity event share one transaction, in the ADMIN's unit.
 */
import {
  EXAM_ERRORS,
  importRejectedMessage,
  type BatchResult,
  type ExamErrorCode,
} from '@exame/shared';
import { AppError, type ErrorDetail } from '../../lib/app-error';
import type { SessionUser } from '../../lib/actors';
import { changeWithActivity } from '../activity/activity.service';
import { readExamCsv } from './csv-import';
import { findExamsForUpdate } from './exams.repository';
import { upsertExams } from './exam-upsert.service';
import type { ExamDeps } from './exams.service';

/** The most problems one answer lists. */
const MAX_LISTED_PROBLEMS = 500;

/** The line number in a problem's place ("linha 12, schedulingDate" -> 12), to list problems in file order. */
function lineOf(path: string): number {
  const match = /linha (\d+)/.exec(path);
  return match ? Number(match[1]) : 0;
}

function rejected(problems: ErrorDetail[]): AppError {
  const code: ExamErrorCode = 'IMPORT_REJECTED';
  return new AppError(
    code,
    importRejectedMessage(problems.length),
    EXAM_ERRORS[code].status,
    problems.slice(0, MAX_LISTED_PROBLEMS),
  );
}

export async function importExamCsv(
  deps: Pick<ExamDeps, 'db'>,
  actor: SessionUser,
  csv: string,
): Promise<BatchResult & { rows: number }> {
  const parsed = readExamCsv(csv);
  // Agendamentos already stored are problems of the file too: report them with the rest.
  const stored = new Set(
    (
      await findExamsForUpdate(
        deps.db,
        actor.federativeUnit,
        parsed.exams.map((exam) => exam.schedulingId),
      )
    ).map((row) => row.schedulingId),
  );
  const problems = [
    ...parsed.errors,
    ...parsed.exams.flatMap((exam, index) =>
      stored.has(exam.schedulingId)
        ? [
            {
              path: `linha ${parsed.lines[index]}, schedulingId`,
              message: `O agendamento ${exam.schedulingId} já existe.`,
            },
          ]
        : [],
    ),
  ].sort((a, b) => lineOf(a.path) - lineOf(b.path));
  if (problems.length > 0) throw rejected(problems);
  if (parsed.exams.length === 0) throw AppError.from(EXAM_ERRORS, 'IMPORT_EMPTY');
  try {
    const result = await changeWithActivity(deps.db, actor, async (tx) => {
      const counts = await upsertExams(
        { tx },
        { federativeUnit: actor.federativeUnit, source: 'import', actorId: actor.id },
        { exams: parsed.exams, createOnly: true },
      );
      return {
        result: counts,
        type: 'exam_import',
        payload: { rows: parsed.rows, created: counts.created },
      };
    });
    return { ...result, rows: parsed.rows };
  } catch (error) {
    if (error instanceof AppError && error.details) {
      // Item positions become file lines: the header is line 1.
      throw rejected(
        error.details.map((detail) => ({
          path: detail.path.replace(
            /^exams\.(\d+)\.?(.*)$/,
            (_m, index: string, field: string) =>
              `linha ${Number(index) + 2}${field ? `, ${field}` : ''}`,
          ),
          message: detail.message,
        })),
      );
    }
    throw error;
  }
}
