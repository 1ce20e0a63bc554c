// @ts-check
/**
 * The simulated users of `bench:day`, in a process of their own so that the
 * measuring side never competes with the server's event loop. Plain
 * JavaScript: `node load-client.mjs` with the plan as JSON in PLAN; prints
 * one JSON line with what it measured.
 *
 * Each user is a loop with the think time of a person, by role:
 * - examiner: holds the unit's event stream open for the whole run and polls
 *   the board every 5 s (the open check-in and the room's exams);
 * - auditor: the audit queue (pages, filters), then one exam's detail;
 * - admin: the dashboard (report and occurrences of a period), the exam list
 *   (filters, pages, a name search) and the user list;
 * - integration: the delivery system pushing status changes of today's
 *   exams, occurrences and new exams;
 * every screen a person opens also sends its page view to the activity log.
 * Event delivery is measured from the moment a status change is sent to its
 * arrival on each open stream.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * @type {{ base: string, seconds: number, integration?: boolean, today: string, periods: string[], posts: string[],
 *   names: string[], users: Array<{ role: string, token: string, cpf?: string, post?: string,
 *   checkInId?: string }>, key: string, todayExams: string[] }}
 */
const plan = JSON.parse(process.env.PLAN ?? '{}');
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const started = performance.now();
const deadline = started + plan.seconds * 1000;
const now = () => performance.now();
const pick = (/** @type {any[]} */ list) => list[Math.floor(Math.random() * list.length)];
const sleep = (/** @type {number} */ ms) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, deadline - now()))));
/** A person's pause between two actions: 1 to 4 s. */
const think = () => sleep(1000 + Math.random() * 3000);

/** @type {Record<string, { latencies: number[], codes: Record<string, number> }>} */
const classes = {};
/** @type {Map<string, number>} change key -> time sent */
const sent = new Map();
/** @type {number[]} */
const deliveries = [];
let streamsOpen = 0;
let streamErrors = 0;

function record(/** @type {string} */ name, /** @type {number} */ ms, /** @type {string} */ code) {
  const entry = (classes[name] ??= { latencies: [], codes: {} });
  entry.latencies.push(ms);
  entry.codes[code] = (entry.codes[code] ?? 0) + 1;
}

/**
 * @param {string} name route class
 * @param {string} method
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {unknown} [body]
 */
function call(name, method, path, headers, body) {
  return new Promise((resolve) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const begin = now();
    const request = http.request(
      plan.base + path,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
        },
        timeout: 30_000,
      },
      (response) => {
        let data = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (data += chunk));
        response.once('end', () => {
          if (now() < deadline) record(name, now() - begin, String(response.statusCode));
          resolve(response.statusCode === 200 && data ? safeJson(data) : null);
        });
      },
    );
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', (error) => {
      if (now() < deadline)
        record(name, now() - begin, error.message === 'timeout' ? 'timeout' : 'erro');
      resolve(null);
    });
    request.end(text);
  });
}

function safeJson(/** @type {string} */ text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const bearer = (/** @type {{ token: string }} */ user) => ({
  authorization: `Bearer ${user.token}`,
});

function pageView(/** @type {{ token: string }} */ user, /** @type {string} */ page) {
  const event = {
    clientId: randomUUID(),
    type: 'page_view',
    occurredAt: new Date().toISOString(),
    target: page,
    deviceId: 'bench-day',
    appVersion: 'bench',
  };
  return call('página vista', 'POST', '/api/ActivityLog/events', bearer(user), { events: [event] });
}

/** The unit's event stream, open for the whole run; arrivals matched with the changes sent. */
function openStream(/** @type {{ token: string }} */ user) {
  return new Promise((resolve) => {
    const request = http.get(plan.base + '/api/Realtime/events', {
      agent: false,
      headers: { ...bearer(user), accept: 'text/event-stream' },
    });
    request.once('error', () => {
      streamErrors += 1;
      resolve(null);
    });
    request.once('response', (response) => {
      if (response.statusCode !== 200) {
        streamErrors += 1;
        response.resume();
        return resolve(null);
      }
      streamsOpen += 1;
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk) => {
        const at = now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = safeJson(data.slice(6));
          const key = `${event?.payload?.schedulingId}|${event?.payload?.status}`;
          const at0 = sent.get(key);
          if (at0 !== undefined && at < deadline) deliveries.push(at - at0);
        }
      });
      resolve(request);
    });
  });
}

async function examiner(/** @type {typeof plan.users[number]} */ user) {
  const stream = await openStream(user);
  await sleep(Math.random() * 5000);
  await pageView(user, '/sala');
  while (now() < deadline) {
    const poll = now();
    await call(
      'quadro',
      'GET',
      `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${user.cpf}&schedulingLocal=${user.post}`,
      bearer(user),
    );
    if (user.checkInId) {
      await call(
        'quadro',
        'GET',
        `/api/SchedulingLocalCheckIn/exams?checkInId=${user.checkInId}&pageSize=50`,
        bearer(user),
      );
    }
    await sleep(5000 - (now() - poll));
  }
  /** @type {any} */ (stream)?.destroy();
}

async function auditor(/** @type {typeof plan.users[number]} */ user) {
  await sleep(Math.random() * 3000);
  while (now() < deadline) {
    await pageView(user, '/auditoria');
    const filter = pick([
      '',
      '&withOccurrences=true',
      '&onlyFree=true',
      `&schedulingLocal=${pick(plan.posts)}`,
    ]);
    const period = pick(plan.periods);
    const queue = await call(
      'fila de auditoria',
      'GET',
      `/api/Audit/queue?page=${1 + Math.floor(Math.random() * 3)}&pageSize=20&${period}${filter}`,
      bearer(user),
    );
    await think();
    const exam = queue?.items?.length ? pick(queue.items) : null;
    if (exam) {
      await pageView(user, '/auditoria/exame');
      await call('detalhe do exame', 'GET', `/api/Exam/${exam.schedulingId}`, bearer(user));
      await think();
    }
  }
}

async function admin(/** @type {typeof plan.users[number]} */ user) {
  await sleep(Math.random() * 3000);
  while (now() < deadline) {
    const screen = Math.random();
    const period = pick(plan.periods);
    if (screen < 0.45) {
      await pageView(user, '/painel');
      await Promise.all([
        call('relatório', 'GET', `/api/ExamReport?${period}`, bearer(user)),
        call(
          'ocorrências do painel',
          'GET',
          `/api/ExamReport/occurrences?${period}&page=1&pageSize=10`,
          bearer(user),
        ),
      ]);
      if (Math.random() < 0.3) {
        await call(
          'ocorrências do painel',
          'GET',
          `/api/ExamReport/occurrences?${period}&page=2&pageSize=10&localId=${pick(plan.posts).replace(/^[A-Z]+\./, 'DF.')}`,
          bearer(user),
        );
      }
    } else if (screen < 0.85) {
      await pageView(user, '/exames');
      const filter = pick([
        '',
        '&status[]=done&result[]=reproved',
        '&status[]=done&result[]=approved',
        `&schedulingLocal=${pick(plan.posts)}`,
        '&sort=candidateName&order=asc',
      ]);
      await call(
        'lista de exames',
        'GET',
        `/api/Exam?${period}&page=${1 + Math.floor(Math.random() * 5)}&pageSize=20${filter}`,
        bearer(user),
      );
      if (Math.random() < 0.4) {
        await think();
        await call(
          'busca de exames',
          'GET',
          `/api/Exam?${period}&search=${encodeURIComponent(pick(plan.names))}&pageSize=20`,
          bearer(user),
        );
      }
    } else {
      await pageView(user, '/usuarios');
      await call('lista de usuários', 'GET', '/api/User?page=1&pageSize=20', bearer(user));
    }
    await think();
  }
}

async function integration() {
  const headers = { 'x-api-key': plan.key };
  /** @type {Array<{ schedulingId: string, status: string }>} */
  const progress = [];
  let next = 0;
  let n = 0;
  await sleep(500);
  while (now() < deadline) {
    n += 1;
    const action = Math.random();
    if (action < 0.7) {
      // Exams start and then finish, a few in progress at a time, as in a room.
      const fresh = () => ({
        schedulingId: plan.todayExams[next++ % plan.todayExams.length],
        status: 'scheduled',
      });
      const exam = progress.shift() ?? fresh();
      const status = exam.status === 'scheduled' ? 'started' : 'done';
      const schedulingId = exam.schedulingId;
      if (status === 'started') progress.push({ schedulingId, status });
      if (progress.length < 5) progress.push(fresh());
      const body =
        status === 'done' ? { status, result: pick(['approved', 'reproved']) } : { status };
      sent.set(`${schedulingId}|${status}`, now());
      await call(
        'integração: situação',
        'PATCH',
        `/api/Integration/exams/${schedulingId}/status`,
        headers,
        body,
      );
    } else if (action < 0.9) {
      const schedulingId = pick(plan.todayExams);
      await call(
        'integração: ocorrência',
        'POST',
        `/api/Integration/exams/${schedulingId}/occurrences`,
        headers,
        {
          occurrences: [
            {
              externalId: `day-${randomUUID()}`,
              type: 'ruido',
              description: 'Ruído no ambiente detectado.',
              occurredAt: new Date().toISOString(),
            },
          ],
        },
      );
    } else {
      const id = `DAY-NEW-${process.pid}-${n}`;
      await call('integração: exame novo', 'POST', '/api/Integration/exams', headers, {
        exams: [
          {
            schedulingId: id,
            candidate: { name: `${pick(plan.names)} Novo ${n}`, cpf: '52998224725' },
            schedulingDate: `${plan.today}T${String(8 + (n % 9)).padStart(2, '0')}:00:00-03:00`,
            status: 'scheduled',
            metadata: { schedulingLocal: `${pick(plan.posts)}-S1` },
          },
        ],
      });
    }
    // The delivery system sends a change every 200 ms or so.
    await sleep(100 + Math.random() * 200);
  }
}

const roles = { examiner, auditor, admin };
const loops = plan.users.map((user) => roles[/** @type {keyof typeof roles} */ (user.role)](user));
if (plan.integration !== false) loops.push(integration());
await Promise.all(loops);
agent.destroy();
process.stdout.write(
  JSON.stringify({
    seconds: (now() - started) / 1000,
    classes,
    deliveries,
    changesSent: sent.size,
    streamsOpen,
    streamErrors,
  }),
);
process.exit(0);
