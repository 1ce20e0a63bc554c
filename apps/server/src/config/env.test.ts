import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

/** A production environment that states all production asks for: the proxy, the file key, the mail. */
const production = {
  NODE_ENV: 'production',
  TRUST_PROXY: '10.0.0.2',
  FILE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  SMTP_URL: 'smtp://mail.detran.gov.br:587',
};

describe('loadConfig', () => {
  it('has working defaults: embedded database and demo seed', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.librasWidgetUrl).toBeUndefined();
  });

  it('a PostgreSQL address turns the demo seed off unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SEED_DEMO: 'true' }).seedDemo).toBe(
      true,
    );
  });

  it('an empty optional address counts as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', LIBRAS_WIDGET_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('fails fast naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'não é endereço' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'verbose' });
    } catch (error) {
      expect((error as Error).message).toMatch(/Configuração inválida/);
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/LOG_LEVEL/);
    }
  });

  it('splits the trusted proxies', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
    ]);
  });

  it('production states the proxy, the file key and the mail delivery explicitly', () => {
    expect(() => loadConfig(production)).not.toThrow();
    for (const name of ['TRUST_PROXY', 'FILE_ENCRYPTION_KEY', 'SMTP_URL'] as const) {
      const { [name]: _omitted, ...rest } = production;
      expect(() => loadConfig(rest), name).toThrow(new RegExp(name));
    }
    // No proxy is a statement too; outbox-only mail must be asked for.
    expect(loadConfig({ ...production, TRUST_PROXY: 'none' }).trustProxy).toEqual([]);
    const { SMTP_URL: _smtp, ...withoutSmtp } = production;
    expect(() => loadConfig({ ...withoutSmtp, MAIL_OUTBOX_ONLY: 'true' })).not.toThrow();
    // Outside production the defaults stay convenient.
    expect(loadConfig({}).trustProxy).toEqual([]);
  });

  it('ADMIN_PASSWORD follows the password policy and the common-password list', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'abc12' })).toThrow(/ADMIN_PASSWORD.*Pelo menos 6/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'senha123' })).toThrow(/ADMIN_PASSWORD.*senha comum/);
    const strict = JSON.stringify({
      schemaVersion: 1,
      customStrengthOptions: { minPasswordLength: 10, containsUppercaseCharacter: true },
    });
    expect(() => loadConfig({ PASSWORD_POLICY: strict, ADMIN_PASSWORD: 'girassol#azul9' })).toThrow(
      /ADMIN_PASSWORD/,
    );
    expect(
      loadConfig({ PASSWORD_POLICY: strict, ADMIN_PASSWORD: 'Girassol#Azul9' }).adminPassword,
    ).toBe('Girassol#Azul9');
  });

  it('the first ADMIN is of DEMO only in demo mode', () => {
    expect(loadConfig({}).adminFederativeUnit).toBe('DEMO');
    expect(loadConfig({ SEED_DEMO: 'false' }).adminFederativeUnit).toBeUndefined();
    expect(
      loadConfig({ SEED_DEMO: 'false', ADMIN_FEDERATIVE_UNIT: 'df' }).adminFederativeUnit,
    ).toBe('DF');
    expect(() => loadConfig({ SEED_DEMO: 'false', ADMIN_FEDERATIVE_UNIT: 'DEMO' })).toThrow(
      /ADMIN_FEDERATIVE_UNIT/,
    );
    expect(() => loadConfig({ ADMIN_FEDERATIVE_UNIT: 'XX' })).toThrow(/ADMIN_FEDERATIVE_UNIT/);
  });
});

describe('load settings', () => {
  it('defaults: a 5 s session cache, a pool of 10, prepared statements, a line on PGlite only', () => {
    const embedded = loadConfig({});
    expect(embedded.sessionCacheMs).toBe(5_000);
    expect(embedded.database).toEqual({
      poolSize: 10,
      connectTimeoutMs: 5_000,
      preparedStatements: true,
      admission: { maxActive: 4, maxQueued: 128, maxWaitMs: 3_000 },
    });
    const postgres = loadConfig({ DATABASE_URL: 'postgres://localhost/x' });
    expect(postgres.database.admission.maxActive).toBe(0);
    expect(embedded.face.timeoutMs).toBe(30_000);
  });

  it('each can be set, and 0 turns the cache and the line off', () => {
    const config = loadConfig({
      SESSION_CACHE_SECONDS: '0',
      DB_POOL_SIZE: '20',
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_PREPARED_STATEMENTS: 'false',
      DB_MAX_ACTIVE_REQUESTS: '0',
      DB_MAX_QUEUED_REQUESTS: '10',
      DB_MAX_QUEUE_WAIT_MS: '250',
    });
    expect(config.sessionCacheMs).toBe(0);
    expect(config.database).toEqual({
      poolSize: 20,
      connectTimeoutMs: 2_000,
      preparedStatements: false,
      admission: { maxActive: 0, maxQueued: 10, maxWaitMs: 250 },
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://localhost/x', DB_MAX_ACTIVE_REQUESTS: '40' }).database
        .admission.maxActive,
    ).toBe(40);
    expect(() => loadConfig({ SESSION_CACHE_SECONDS: '-1' })).toThrow(/SESSION_CACHE_SECONDS/);
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE/);
    expect(loadConfig({ FACE_TIMEOUT_MS: '5000' }).face.timeoutMs).toBe(5_000);
    expect(() => loadConfig({ FACE_TIMEOUT_MS: '10' })).toThrow(/FACE_TIMEOUT_MS/);
  });
});

describe('face match threshold by unit', () => {
  it('unset: no unit has its own; each unit set is parsed once, at most the default', () => {
    expect(loadConfig({}).face.matchThresholdByUnit).toEqual({});
    expect(
      loadConfig({ FACE_MATCH_THRESHOLD_BY_UNIT: '{"DF":0.62,"SP":0.69}' }).face
        .matchThresholdByUnit,
    ).toEqual({ DF: 0.62, SP: 0.69 });
    // Checked against the configured default, not the built-in one.
    expect(
      loadConfig({ FACE_MATCH_THRESHOLD: '0.6', FACE_MATCH_THRESHOLD_BY_UNIT: '{"DF":0.6}' }).face,
    ).toMatchObject({ matchThreshold: 0.6, matchThresholdByUnit: { DF: 0.6 } });
  });

  it('refuses a looser, zero, negative or non-numeric value, an unknown unit and bad JSON, in pt-BR', () => {
    const refused = (value: string, extra: Record<string, string> = {}) => {
      try {
        loadConfig({ FACE_MATCH_THRESHOLD_BY_UNIT: value, ...extra });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`aceito: ${value}`);
    };
    expect(refused('{"DF":0.75}')).toBe(
      'Configuração inválida:\n  - FACE_MATCH_THRESHOLD_BY_UNIT: DF: 0,75 é mais permissivo que FACE_MATCH_THRESHOLD (0,69); uma unidade só pode usar um limiar igual ou menor (menor = mais rigoroso)',
    );
    expect(refused('{"DF":0.65}', { FACE_MATCH_THRESHOLD: '0.6' })).toMatch(
      /DF: 0,65 é mais permissivo que FACE_MATCH_THRESHOLD \(0,6\)/,
    );
    expect(refused('{"DF":0}')).toMatch(/DF: o limiar precisa ser maior que 0/);
    expect(refused('{"DF":-0.1,"SP":0.9}')).toMatch(
      /DF: o limiar precisa ser maior que 0.*\n.*SP: 0,9 é mais permissivo/,
    );
    expect(refused('{"XX":0.5}')).toMatch(/XX: sigla de unidade desconhecida/);
    for (const bad of ['{"DF":"0.6"}', '0.6', '{DF:0.6}', '[0.6]', '{"df":0.6}']) {
      expect(refused(bad)).toBe(
        'Configuração inválida:\n  - FACE_MATCH_THRESHOLD_BY_UNIT: use JSON com a sigla da unidade e o limiar da distância facial, ex.: {"DF":0.62}',
      );
    }
  });
});

describe('production: demo seed, API document, backup key, demo retention', () => {
  it('production seeds no demo and serves no /docs unless asked; development keeps both', () => {
    expect(loadConfig(production)).toMatchObject({ seedDemo: false, apiDocs: false });
    expect(loadConfig({ ...production, SEED_DEMO: 'true', API_DOCS: 'true' })).toMatchObject({
      seedDemo: true,
      apiDocs: true,
    });
    // Without the demo, production names the first ADMIN's unit; DEMO is refused.
    expect(loadConfig(production).adminFederativeUnit).toBeUndefined();
    expect(() => loadConfig({ ...production, ADMIN_FEDERATIVE_UNIT: 'DEMO' })).toThrow(
      /ADMIN_FEDERATIVE_UNIT: DEMO só com o modo de demonstração/,
    );
    // `npm install && npm start`: demo data, its accounts and /docs, as before.
    expect(loadConfig({})).toMatchObject({
      seedDemo: true,
      apiDocs: true,
      adminFederativeUnit: 'DEMO',
    });
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(() => loadConfig({ API_DOCS: 'talvez' })).toThrow(/API_DOCS/);
  });

  it('BACKUP_KEY: at least 16 characters, never the file key', () => {
    expect(loadConfig({}).backupKey).toBeUndefined();
    expect(loadConfig({ BACKUP_KEY: ' chave-da-copia-2026 ' }).backupKey).toBe(
      'chave-da-copia-2026',
    );
    expect(() => loadConfig({ BACKUP_KEY: 'curta' })).toThrow(
      /BACKUP_KEY: use ao menos 16 caracteres/,
    );
    expect(() => loadConfig({ ...production, BACKUP_KEY: production.FILE_ENCRYPTION_KEY })).toThrow(
      /BACKUP_KEY: precisa ser diferente de FILE_ENCRYPTION_KEY/,
    );
  });

  it('DEMO_RETENTION_DAYS: 30 by default, 1 to 3650', () => {
    expect(loadConfig({}).demoRetentionDays).toBe(30);
    expect(loadConfig({ DEMO_RETENTION_DAYS: '7' }).demoRetentionDays).toBe(7);
    for (const bad of ['0', '3651', '1.5', 'um mês']) {
      expect(() => loadConfig({ DEMO_RETENTION_DAYS: bad }), bad).toThrow(/DEMO_RETENTION_DAYS/);
    }
  });

  it('event streams and browser events: bounds with defaults, refused out of range', () => {
    const defaults = loadConfig({});
    expect(defaults.realtime).toEqual({ maxStreamsPerUser: 10, sessionCheckMs: 5000 });
    expect(defaults.activity).toEqual({ clientEventsPerHour: 600, webRetentionDays: 90 });
    const set = loadConfig({
      REALTIME_MAX_STREAMS_PER_USER: '3',
      REALTIME_SESSION_CHECK_SECONDS: '1.5',
      ACTIVITY_CLIENT_EVENTS_PER_HOUR: '2000',
      ACTIVITY_WEB_RETENTION_DAYS: '30',
    });
    expect(set.realtime).toEqual({ maxStreamsPerUser: 3, sessionCheckMs: 1500 });
    expect(set.activity).toEqual({ clientEventsPerHour: 2000, webRetentionDays: 30 });
    for (const [name, bad] of [
      ['REALTIME_MAX_STREAMS_PER_USER', '0'],
      ['REALTIME_SESSION_CHECK_SECONDS', '61'],
      ['ACTIVITY_CLIENT_EVENTS_PER_HOUR', '5'],
      ['ACTIVITY_WEB_RETENTION_DAYS', 'noventa'],
    ] as const) {
      expect(() => loadConfig({ [name]: bad }), name).toThrow(new RegExp(name));
    }
  });
});

describe('face verification ceiling per CPF', () => {
  it('defaults to 50 and can be raised; below twice what one user may try it is refused in pt-BR', () => {
    expect(loadConfig({}).faceVerifyCpfLimit).toBe(50);
    expect(loadConfig({ FACE_VERIFY_CPF_LIMIT: '120' }).faceVerifyCpfLimit).toBe(120);
    expect(() => loadConfig({ FACE_VERIFY_CPF_LIMIT: '10' })).toThrow(
      'FACE_VERIFY_CPF_LIMIT: use ao menos 20 (o dobro do limite de cada usuário por CPF)',
    );
  });

  it('MFA_REQUIRED_ROLES: ADMIN in production, none elsewhere; a list, "none", or a pt-BR refusal', () => {
    expect(loadConfig(production).secondFactor.requiredRoles).toEqual(['ADMIN']);
    expect(loadConfig({}).secondFactor.requiredRoles).toEqual([]);
    expect(
      loadConfig({ ...production, MFA_REQUIRED_ROLES: 'none' }).secondFactor.requiredRoles,
    ).toEqual([]);
    expect(
      loadConfig({ MFA_REQUIRED_ROLES: 'ADMIN, auditor,ADMIN' }).secondFactor.requiredRoles,
    ).toEqual(['ADMIN', 'auditor']);
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'ADMIN,chefe' })).toThrow(/MFA_REQUIRED_ROLES/);
    // The passkeys' relying party is the host of PUBLIC_APP_URL.
    const config = loadConfig({ PUBLIC_APP_URL: 'https://exame.detran.df.gov.br/' });
    expect(config.secondFactor).toMatchObject({
      rpId: 'exame.detran.df.gov.br',
      origin: 'https://exame.detran.df.gov.br',
    });
  });
});
