/**
 * Disqualification reasons (`justificativas`) through the API, on both
 * database tiers: ADMIN manages them, auditors read them, nothing is ever
 * deleted, and another unit neither sees nor changes them.
 */
import { DEFAULT_DISQUALIFICATION_REASONS } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn, signedSender } from '../../../test/identity';
import { seedDefaultReasons } from './disqualification-reasons.service';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

describe('disqualification reasons', () => {
  let t: TestApp;
  let admin: Signed;
  let auditor: Signed;
  let other: Signed;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP' });
    other = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'RJ' });
  });
  afterAll(() => t.close());

  const send = signedSender(() => t.app);

  it('ADMIN creates reasons; the code is unique in the unit, not across units', async () => {
    const created = await send('POST', '/api/DisqualificationReason', admin, {
      code: ' D10 ',
      text: '  Consulta a material impresso durante a prova. ',
      federativeUnit: 'RJ',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      federativeUnit: 'SP',
      code: 'D10',
      text: 'Consulta a material impresso durante a prova.',
      isActive: true,
    });
    const again = await send('POST', '/api/DisqualificationReason', admin, {
      code: 'D10',
      text: 'Outra justificativa qualquer.',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      Error: 'Já existe uma justificativa com este código na unidade.',
      code: 'REASON_CODE_TAKEN',
    });
    const elsewhere = await send('POST', '/api/DisqualificationReason', other, {
      code: 'D10',
      text: 'A mesma sigla em outra unidade.',
    });
    expect(elsewhere.statusCode).toBe(201);
    const bad = await send('POST', '/api/DisqualificationReason', admin, {
      code: 'D 11',
      text: 'curt',
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(
      'Use de 1 a 20 letras, números, ponto, hífen ou sublinhado no código.',
    );
    expect(JSON.stringify(bad.json())).toContain(
      'Descreva a justificativa (no mínimo 5 caracteres).',
    );
    const [{ n }] = (await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from disqualification_reasons where federative_unit = 'SP'`,
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('the list: by code, searched by code or text, only the active ones when asked; auditors read it', async () => {
    for (const [code, text] of [
      ['D20', 'Terceiro soprando as respostas ao candidato.'],
      ['D21', 'Fone de ouvido visível durante a prova.'],
    ]) {
      expect(
        (await send('POST', '/api/DisqualificationReason', admin, { code, text })).statusCode,
      ).toBe(201);
    }
    const all = await send('GET', '/api/DisqualificationReason?pageSize=50', auditor);
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((r: { code: string }) => r.code)).toEqual(['D10', 'D20', 'D21']);
    const found = await send('GET', '/api/DisqualificationReason?search=fone', auditor);
    expect(found.json().items.map((r: { code: string }) => r.code)).toEqual(['D21']);
    const paged = await send('GET', '/api/DisqualificationReason?pageSize=2&page=2', admin);
    expect(paged.json()).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.json().items).toHaveLength(1);
  });

  it('deactivated, never deleted; reactivated; each change in the activity log with what it said before', async () => {
    const list = (await send('GET', '/api/DisqualificationReason?search=D20', admin)).json();
    const reason = list.items[0] as { id: string };
    const off = await send('PUT', `/api/DisqualificationReason/${reason.id}`, admin, {
      isActive: false,
    });
    expect(off.json()).toMatchObject({ code: 'D20', isActive: false });
    const active = await send('GET', '/api/DisqualificationReason?onlyActive=true', auditor);
    expect(active.json().items.map((r: { code: string }) => r.code)).toEqual(['D10', 'D21']);
    // There is no way to delete one.
    const deleted = await send('DELETE', `/api/DisqualificationReason/${reason.id}`, admin);
    expect(deleted.statusCode).toBe(404);
    const edited = await send('PUT', `/api/DisqualificationReason/${reason.id}`, admin, {
      text: 'Terceiro soprando respostas ao candidato.',
      isActive: true,
    });
    expect(edited.json()).toMatchObject({
      isActive: true,
      text: 'Terceiro soprando respostas ao candidato.',
    });
    const taken = await send('PUT', `/api/DisqualificationReason/${reason.id}`, admin, {
      code: 'D21',
    });
    expect(taken.json().code).toBe('REASON_CODE_TAKEN');
    const log = await selectRows<{ type: string; before: { text: string; isActive: boolean } }>(
      t.database.db,
      sql`select type, payload->'before' as before from activity_log
          where actor_id = ${admin.user.id} and payload->>'reasonId' = ${reason.id} order by created_at`,
    );
    expect(log.map((row) => row.type)).toEqual([
      'reason_add',
      'reason_deactivate',
      'reason_update',
    ]);
    expect(log[2]!.before).toMatchObject({
      text: 'Terceiro soprando as respostas ao candidato.',
      isActive: false,
    });
  });

  it('another unit neither sees nor changes the reasons', async () => {
    const mine = (await send('GET', '/api/DisqualificationReason?search=D21', admin)).json()
      .items[0] as { id: string; text: string };
    const foreign = await send('PUT', `/api/DisqualificationReason/${mine.id}`, other, {
      text: 'Alterada por outra unidade.',
      isActive: false,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('REASON_NOT_FOUND');
    const theirs = (await send('GET', '/api/DisqualificationReason', other)).json();
    expect(theirs.items.map((r: { code: string }) => r.code)).toEqual(['D10']);
    const after = (await send('GET', '/api/DisqualificationReason?search=D21', admin)).json()
      .items[0];
    expect(after).toMatchObject({ text: mine.text, isActive: true });
  });

  it('a unit starts with the default reasons once; a second run adds nothing', async () => {
    expect(await seedDefaultReasons(t.database.db, 'MG')).toBe(
      DEFAULT_DISQUALIFICATION_REASONS.length,
    );
    expect(await seedDefaultReasons(t.database.db, 'MG')).toBe(0);
  });
});
