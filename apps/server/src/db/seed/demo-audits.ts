/**
 * The demo audit queue: finished exams of the unit waiting for audit (done,
 * result `in_analysis`) with a score on either side of the pass mark, the
 * candidate's reference photo, three or four captures and, for about a third
 * of them, occurrences (some pointing at the capture that shows them). The
 * pictures are synthetic illustrations without a real person: the face
 * engine finds no face in them, which the audit screen says as it is.
 *
 * Seed scripts generate data and write their SQL here directly: they are the
 * one exception, with db/, to the rule that SQL lives in *.repository.ts files
 * (checked by .dependency-cruiser.cjs, sql-only-in-repositories).
 */
import { createHash } from 'node:crypto';
import { dayInZone, zonedDayStart } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { type Database, type Executor } from '../client';
import { selectRows } from '../select-rows';

/** Correct answers out of 30 (score = correct / 30 × 100): most pass (≥ 70), some do not. */
const CORRECT_ANSWERS = [25, 19, 27, 22, 17, 28, 21, 20, 24, 26, 18, 23];
const QUESTIONS = 30;

type OccurrenceKind = 'terceiro' | 'celular' | 'ausencia_rosto';

const OCCURRENCE_TEXTS: Readonly<Record<OccurrenceKind, string>> = {
  terceiro: 'Outra pessoa apareceu ao lado do candidato na imagem da câmera.',
  celular: 'O candidato segurou um celular diante da câmera durante a prova.',
  ausencia_rosto: 'O rosto do candidato saiu do enquadramento da câmera por mais de 30 segundos.',
};

/**
 * The occurrences of the exams that have some (every third one), in turn:
 * each with the capture that shows it (1-based), or none (reported without a picture).
 */
const OCCURRENCE_PLANS: ReadonlyArray<ReadonlyArray<{ type: OccurrenceKind; shot?: number }>> = [
  [{ type: 'terceiro', shot: 2 }],
  [{ type: 'celular', shot: 3 }, { type: 'ausencia_rosto' }],
  [{ type: 'ausencia_rosto', shot: 1 }],
  [{ type: 'celular' }, { type: 'terceiro', shot: 3 }],
];

/** Skin, hair and clothing tones: each demo candidate looks different. */
const LOOKS = [
  { skin: '#e0b48f', hair: '#3b2a20', shirt: '#3d5a80' },
  { skin: '#8d5a3b', hair: '#1d1611', shirt: '#7a3e48' },
  { skin: '#f1c9a5', hair: '#a8743a', shirt: '#2f6f5e' },
  { skin: '#c68a62', hair: '#2b2018', shirt: '#5b4b8a' },
  { skin: '#6b4430', hair: '#141010', shirt: '#b5651d' },
  { skin: '#d9a47e', hair: '#5a3b24', shirt: '#44546a' },
];

/** For created exams when the unit has too few waiting for audit. */
const CREATED_NAMES = [
  'Adriana Moreira Campos',
  'Caio Henrique Duarte',
  'Débora Nunes Cardoso',
  'Fábio Teixeira Rocha',
  'Helena Prado Araújo',
  'Igor Batista Mendes',
];

type Target = {
  id: string;
  schedulingLocal: string | null;
  station: string | null;
  startedAt: Date;
};

const timeFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Head and shoulders, drawn without features (no face for the engine to find). */
function silhouette(look: (typeof LOOKS)[number], x: number, y: number, scale: number): string {
  return `<g transform="translate(${x},${y}) scale(${scale})">
    <path d="M-180 260 C-180 130 -90 90 0 90 C90 90 180 130 180 260 Z" fill="${look.shirt}"/>
    <rect x="-35" y="0" width="70" height="110" rx="22" fill="${look.skin}"/>
    <ellipse cx="0" cy="-90" rx="95" ry="120" fill="${look.skin}"/>
    <path d="M-95 -100 C-100 -190 -50 -220 0 -220 C50 -220 100 -190 95 -100 C80 -150 40 -170 0 -170 C-40 -170 -80 -150 -95 -100 Z" fill="${look.hair}"/>
  </g>`;
}

/** The picture on file: a plain light background, head and shoulders, the caption. */
export function referenceSvg(index: number): string {
  const look = LOOKS[index % LOOKS.length]!;
  const hue = (index * 53) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="600">
    <rect width="480" height="600" fill="hsl(${hue},25%,93%)"/>
    ${silhouette(look, 240, 350, 1)}
    <rect x="0" y="0" width="480" height="44" fill="rgba(255,255,255,0.85)"/>
    <text x="240" y="29" text-anchor="middle" font-size="19" font-family="sans-serif" fill="#333">Foto de referência · demonstração</text>
  </svg>`;
}

/** A webcam frame of the exam: the station, the capture number and time, what the occurrence saw. */
export function captureSvg(
  index: number,
  target: Pick<Target, 'schedulingLocal' | 'station'>,
  shot: number,
  capturedAt: Date,
  shows?: OccurrenceKind,
): string {
  const look = LOOKS[index % LOOKS.length]!;
  const other = LOOKS[(index + 3) % LOOKS.length]!;
  const hue = (index * 47 + 200) % 360;
  // The candidate moves a little between captures.
  const dx = ((shot * 37 + index * 11) % 60) - 30;
  const person =
    shows === 'ausencia_rosto'
      ? // The empty chair.
        `<rect x="${250 + dx}" y="250" width="140" height="140" rx="24" fill="#2e2e33"/>`
      : silhouette(look, 320 + dx, 265, 0.8);
  const extra =
    shows === 'terceiro'
      ? silhouette(other, 545, 235, 0.55)
      : shows === 'celular'
        ? `<rect x="${360 + dx}" y="300" width="48" height="84" rx="8" fill="#111"/>
           <rect x="${365 + dx}" y="308" width="38" height="64" rx="3" fill="#7fb2d9"/>`
        : '';
  const station = target.station ?? 'Estação';
  const local = target.schedulingLocal ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <defs>
      <radialGradient id="v" cx="50%" cy="50%" r="75%">
        <stop offset="60%" stop-color="#000" stop-opacity="0"/>
        <stop offset="100%" stop-color="#000" stop-opacity="0.45"/>
      </radialGradient>
    </defs>
    <rect width="640" height="480" fill="hsl(${hue},14%,62%)"/>
    <rect x="40" y="60" width="150" height="110" fill="hsl(${hue},10%,72%)"/>
    ${extra}
    ${person}
    <rect x="0" y="390" width="640" height="90" fill="hsl(30,25%,38%)"/>
    <rect width="640" height="480" fill="url(#v)"/>
    <rect x="0" y="0" width="640" height="34" fill="rgba(0,0,0,0.55)"/>
    <circle cx="18" cy="17" r="6" fill="#e53935"/>
    <text x="32" y="23" font-size="16" font-family="sans-serif" fill="#fff">${escapeXml(`${local} · ${station}`)}</text>
    <text x="628" y="23" text-anchor="end" font-size="16" font-family="sans-serif" fill="#fff">${escapeXml(`captura ${shot} · ${timeFormat.format(capturedAt)}`)}</text>
    <text x="628" y="466" text-anchor="end" font-size="14" font-family="sans-serif" fill="#eee">demonstração · sem pessoa real</text>
  </svg>`;
}

/** Exams of the unit that already have a reference photo (prepared before). */
async function countPrepared(db: Database, unit: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(distinct p.exam_id)::int as n from exam_photos p
        join exams e on e.id = p.exam_id
        where e.federative_unit = ${unit} and p.kind = 'reference'`,
  );
  return row?.n ?? 0;
}

type TargetRow = {
  id: string;
  scheduling_local: string | null;
  station: string | null;
  started_at: string | Date;
};

const toTarget = (row: TargetRow): Target => ({
  id: row.id,
  schedulingLocal: row.scheduling_local,
  station: row.station,
  startedAt: new Date(row.started_at),
});

/**
 * Exams waiting for audit before today without any photo, the oldest first:
 * they lead the queue, so its first page is all exams with photos.
 */
async function pickWaiting(
  db: Database,
  unit: string,
  before: Date,
  limit: number,
): Promise<Target[]> {
  const rows = await selectRows<TargetRow>(
    db,
    sql`select id, scheduling_local, station, started_at from (
          select e.id, e.scheduling_id, e.scheduling_local, e.station, e.scheduling_date,
                 coalesce(e.started_at, e.scheduling_date) as started_at
          from exams e
          where e.federative_unit = ${unit} and e.status = 'done' and e.result = 'in_analysis'
            and e.scheduling_date < ${before.toISOString()}::timestamptz
            and not exists (select 1 from exam_photos p where p.exam_id = e.id)
        ) waiting
        order by scheduling_date, scheduling_id
        limit ${limit}`,
  );
  return rows.map(toTarget);
}

/** New exams waiting for audit over the days before `before`, across the unit's posts. */
async function createWaiting(
  db: Database,
  unit: string,
  before: Date,
  count: number,
): Promise<Target[]> {
  const locals = (
    await selectRows<{ identifier: string }>(
      db,
      sql`select identifier from scheduling_locals where federative_unit = ${unit} order by identifier`,
    )
  ).map((row) => row.identifier);
  if (locals.length === 0) locals.push(`${unit}.POSTO01`);
  const prefix = `${unit}-AUD-`;
  const [existing] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exams
        where federative_unit = ${unit} and starts_with(scheduling_id, ${prefix})`,
  );
  const first = (existing?.n ?? 0) + 1;
  const created: Target[] = [];
  for (let index = 0; index < count; index += 1) {
    const number = first + index;
    // From two days before `before` back, office hours in Brasília (11:00-20:00 UTC).
    const schedulingDate = new Date(
      before.getTime() -
        (2 + ((index * 2) % 14)) * 86_400_000 +
        (8 + ((index * 37) % 9)) * 3_600_000 +
        ((index * 13) % 60) * 60_000,
    );
    const startedAt = new Date(schedulingDate.getTime() + 5 * 60_000);
    const finishedAt = new Date(schedulingDate.getTime() + 45 * 60_000);
    const room = 1 + (index % 3);
    const local = `${locals[index % locals.length]}-S${room}`;
    const station = `Estação ${String(1 + ((index * 7) % 20)).padStart(2, '0')}`;
    const cpf = String((number * 7_919_017) % 99_999_999_999).padStart(11, '0');
    const rows = await selectRows<{ id: string }>(
      db,
      sql`insert into exams (
            federative_unit, scheduling_id, candidate_name, candidate_cpf, scheduling_date,
            status, result, scheduling_local, pending_audit, room, station, started_at, finished_at
          ) values (
            ${unit}, ${prefix + String(number).padStart(4, '0')},
            ${CREATED_NAMES[number % CREATED_NAMES.length]!}, ${cpf},
            ${schedulingDate.toISOString()}::timestamptz, 'done', 'in_analysis', ${local}, 1,
            ${`Sala ${room}`}, ${station}, ${startedAt.toISOString()}::timestamptz,
            ${finishedAt.toISOString()}::timestamptz
          )
          on conflict (federative_unit, scheduling_id) do nothing
          returning id`,
    );
    const id = rows[0]?.id;
    if (!id) continue;
    await db.execute(sql`
      insert into exam_status_history (exam_id, from_status, to_status, to_result, source, at)
      values (${id}, null, 'scheduled', null, 'seed', ${new Date(schedulingDate.getTime() - 3 * 86_400_000).toISOString()}::timestamptz),
             (${id}, 'scheduled', 'started', null, 'seed', ${startedAt.toISOString()}::timestamptz),
             (${id}, 'started', 'done', 'in_analysis', 'seed', ${finishedAt.toISOString()}::timestamptz)
    `);
    created.push({ id, schedulingLocal: local, station, startedAt });
  }
  return created;
}

type Picture = {
  kind: 'reference' | 'capture';
  shot: number;
  capturedAt: Date;
  jpeg: Buffer;
  storageKey: string;
  width: number;
  height: number;
};

async function insertPicture(tx: Executor, examId: string, picture: Picture): Promise<string> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`insert into exam_photos (exam_id, kind, captured_at, storage_key, content_type, width, height, bytes, sha256)
        values (${examId}, ${picture.kind}, ${picture.capturedAt.toISOString()}::timestamptz, ${picture.storageKey},
                'image/jpeg', ${picture.width}, ${picture.height}, ${picture.jpeg.length},
                ${createHash('sha256').update(picture.jpeg).digest('hex')})
        on conflict do nothing
        returning id`,
  );
  return rows[0]?.id ?? '';
}

/**
 * Prepares `count` exams of the unit's audit queue (see the file comment);
 * exams prepared before count, so a second run adds nothing. Returns how many
 * exams it prepared now.
 */
export async function seedDemoAuditQueue(
  db: Database,
  files: { put: (content: Buffer) => Promise<string> },
  options: { unit?: string; count?: number } = {},
): Promise<number> {
  const unit = options.unit ?? 'DEMO';
  const count = options.count ?? 12;
  const prepared = await countPrepared(db, unit);
  const missing = count - prepared;
  if (missing <= 0) return 0;
  const today = zonedDayStart(dayInZone(new Date()));
  const targets = await pickWaiting(db, unit, today, missing);
  if (targets.length < missing) {
    targets.push(...(await createWaiting(db, unit, today, missing - targets.length)));
  }
  const { default: sharp } = await import('sharp');
  const render = async (svg: string) => sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();

  for (const [offset, target] of targets.entries()) {
    const index = prepared + offset;
    const correct = CORRECT_ANSWERS[index % CORRECT_ANSWERS.length]!;
    const score = Math.round((correct / QUESTIONS) * 10_000) / 100;
    const plan =
      index % 3 === 1 ? OCCURRENCE_PLANS[Math.floor(index / 3) % OCCURRENCE_PLANS.length]! : [];
    const shots = 3 + (index % 2);

    // The pictures are stored before the transaction; a failed one leaves
    // files no row references, which the retention removes.
    const referenceAt = new Date(target.startedAt.getTime() - 20 * 60_000);
    const referenceJpeg = await render(referenceSvg(index));
    const pictures: Picture[] = [
      {
        kind: 'reference',
        shot: 0,
        capturedAt: referenceAt,
        jpeg: referenceJpeg,
        storageKey: await files.put(referenceJpeg),
        width: 480,
        height: 600,
      },
    ];
    for (let shot = 1; shot <= shots; shot += 1) {
      const capturedAt = new Date(
        target.startedAt.getTime() +
          (4 + shot * 9) * 60_000 +
          ((index * 7 + shot * 13) % 60) * 1000,
      );
      const shows = plan.find((item) => item.shot === shot)?.type;
      const jpeg = await render(captureSvg(index, target, shot, capturedAt, shows));
      pictures.push({
        kind: 'capture',
        shot,
        capturedAt,
        jpeg,
        storageKey: await files.put(jpeg),
        width: 640,
        height: 480,
      });
    }

    await db.transaction(async (tx) => {
      await tx.execute(
        sql`update exams set score = ${score}, updated_at = now() where id = ${target.id}`,
      );
      const ids = new Map<number, string>();
      for (const picture of pictures)
        ids.set(picture.shot, await insertPicture(tx, target.id, picture));
      // The generic occurrence of the demo history gives way to ones the captures show.
      await tx.execute(
        sql`delete from occurrences where exam_id = ${target.id} and external_id = ${`seed-${target.id}`}`,
      );
      for (const [number, item] of plan.entries()) {
        const shown = item.shot
          ? pictures.find((picture) => picture.shot === item.shot)
          : undefined;
        const occurredAt = shown
          ? new Date(shown.capturedAt.getTime() - 20_000)
          : new Date(target.startedAt.getTime() + 30 * 60_000);
        const photoId = item.shot ? ids.get(item.shot) || null : null;
        await tx.execute(sql`
          insert into occurrences (exam_id, external_id, type, description, occurred_at, photo_id)
          values (${target.id}, ${`demo-audit-${number + 1}`}, ${item.type}, ${OCCURRENCE_TEXTS[item.type]},
                  ${occurredAt.toISOString()}::timestamptz, ${photoId})
          on conflict do nothing
        `);
      }
    });
  }
  return targets.length;
}
