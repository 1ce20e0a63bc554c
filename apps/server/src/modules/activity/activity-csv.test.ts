/**
 * The activity export read the ways a spreadsheet may read it: a target a
 * browser sent with a comma before a formula (`x,=cmd|...`) stays one
 * quoted cell, and no piece of it starts a formula with `;`, `,` or tab as
 * the separator, with or without quotes honoured.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formulaCells, readCsv } from '../../../test/csv';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

const TARGET = "x,=cmd|' /C calc'!A0";

describe(`activity export, CSV cells (${engineName})`, () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  });
  afterAll(() => t.close());

  it('quotes every cell and neutralises every formula start, whatever the separator', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/ActivityLog/events',
      headers: admin.auth,
      payload: {
        events: [
          {
            clientId: randomUUID(),
            type: 'page_view',
            occurredAt: new Date().toISOString(),
            target: TARGET,
            details: { from: '\t=1+1', list: 'a;-2,@b' },
            deviceId: 'dispositivo-1',
            appVersion: '1.4.2',
          },
        ],
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/ActivityLog/export?type=page_view',
      headers: admin.auth,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const text = answer.rawPayload.toString('utf8');
    expect(formulaCells(text)).toEqual([]);
    // Every cell of every line is quoted.
    for (const line of text.slice(1).split('\r\n').filter(Boolean)) {
      expect(line).toMatch(/^"(?:[^"]|"")*"(?:;"(?:[^"]|"")*")*$/);
    }
    // Read with `;` and quotes, the target is the one sent, its formula made literal.
    const rows = readCsv(text, ';');
    expect(rows.slice(1).some((row) => row.includes("x,'=cmd|' /C calc'!A0"))).toBe(true);
  });
});
