/**
 * The API as the specs' set-up calls it: a signed-in user's bearer token, or
 * an integration key (`exk_…`); the status and the parsed JSON body back.
 */
export async function apiCall(
  baseUrl: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token.startsWith('exk_') ? { 'x-api-key': token } : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

export type Credentials = { email: string; password: string };

/** A finished exam as the delivery system pushes it to a post's room S1 of the DEMO unit. */
export type FinishedExam = {
  schedulingId: string;
  candidate: { name: string; cpf: string; renach?: string };
  /** `HH:mm` of today in São Paulo. */
  time: string;
  result: 'approved' | 'disapproved' | 'in_analysis';
  score: number;
  station: string;
};

/**
 * The settings of the specs that release an exam (`releasedExam`): no released
 * exam drawn for a recheck (it ends approved), and no sweep reading the faces
 * of the exams waiting for audit meanwhile.
 */
export const RELEASE_AT_ONCE_ENV = { AUDIT_RECHECK_PERCENT: '0', FACE_ANALYSIS_SWEEP_SECONDS: '0' };

/**
 * The set-up calls the specs share, bound to one running server (its address
 * read at each call: the server starts in `beforeAll`).
 */
export function apiOf(baseUrl: () => string) {
  const call = (token: string, method: string, url: string, body?: unknown) =>
    apiCall(baseUrl(), token, method, url, body);
  const tokenOf = async (who: Credentials) =>
    ((await call('', 'POST', '/api/Auth', who)).body as { token: string }).token;
  /** A new integration key of the admin's unit (`exk_…`). */
  async function integrationKey(adminToken: string, name: string): Promise<string> {
    const created = await call(adminToken, 'POST', '/api/Integration/keys', { name });
    return (created.body as { key: string }).key;
  }
  /** Pushes one finished exam of today; throws with the answer if it is refused. */
  async function pushFinishedExam(key: string, exam: FinishedExam, day: string): Promise<void> {
    const pushed = await call(key, 'POST', '/api/Integration/exams', {
      exams: [
        {
          schedulingId: exam.schedulingId,
          candidate: exam.candidate,
          schedulingDate: `${day}T${exam.time}:00-03:00`,
          status: 'done',
          result: exam.result,
          score: exam.score,
          metadata: { schedulingLocal: 'DEMO.POSTO01-S1' },
          room: 'Sala 1',
          station: exam.station,
        },
      ],
    });
    if (pushed.status !== 200) {
      throw new Error(`exame não recebido (${pushed.status}): ${JSON.stringify(pushed.body)}`);
    }
  }
  /** The auditor finds the exam in the day's queue, claims it and releases it; its id back. */
  async function releaseByAudit(auditorToken: string, schedulingId: string, day: string) {
    const queue = await call(
      auditorToken,
      'GET',
      `/api/Audit/queue?pageSize=100&startDate=${day}&endDate=${day}`,
    );
    const item = (queue.body as { items: Array<{ id: string; schedulingId: string }> }).items.find(
      (entry) => entry.schedulingId === schedulingId,
    );
    if (!item) throw new Error(`exame ${schedulingId} fora da fila de auditoria`);
    const claimed = await call(auditorToken, 'POST', `/api/Audit/${item.id}/claim`);
    if (claimed.status !== 200) throw new Error(`reserva recusada (${claimed.status})`);
    const released = await call(auditorToken, 'POST', `/api/Audit/${item.id}/decision`, {
      action: 'release',
    });
    return { examId: item.id, released: released.body as { result?: string } };
  }
  return {
    call,
    tokenOf,
    integrationKey,
    pushFinishedExam,
    releaseByAudit,
    /**
     * An exam of today in analysis since 07:00, pushed through a new key named
     * `keyName` and released by `auditor`: its id and the release's answer.
     */
    async releasedExam(
      adminToken: string,
      keyName: string,
      auditor: Credentials,
      exam: Omit<FinishedExam, 'time' | 'result'>,
      day: string,
    ) {
      const key = await integrationKey(adminToken, keyName);
      await pushFinishedExam(key, { ...exam, time: '07:00', result: 'in_analysis' }, day);
      return releaseByAudit(await tokenOf(auditor), exam.schedulingId, day);
    },
  };
}
