/**
 * First start: an empty database gets a first ADMIN (from ADMIN_EMAIL /
 * ADMIN_PASSWORD, or a random password printed once) in the unit named by
 * ADMIN_FEDERATIVE_UNIT, which is DEMO only in demo mode and must be given
 * otherwise. In demo mode (the embedded default) there is also a demo user
 * of each other role (two auditors, so that one confirms the other's
 * decision) with the same password, so a newcomer can try every screen.
 */
import type { Role } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { ConfigError, type AppConfig } from '../../config/env';
import { randomPassword } from '../../lib/crypto';
import type { PasswordHasher } from '../../lib/password-hash';
import { seedDefaultReasons } from '../../modules/disqualification-reasons/disqualification-reasons.service';
import { countUsers, insertUser } from '../../modules/users/users.repository';
import type { Database } from '../client';

export type SeededAccount = { email: string; role: Role; name: string; unit: string };
export type FirstStartResult = {
  password: string;
  passwordFromEnv: boolean;
  accounts: SeededAccount[];
} | null;

/** Valid CPFs for the seeded people (check digits computed, not real persons). */
export function cpfFromBase(base: string): string {
  const digits = base.padStart(9, '0').slice(0, 9);
  const dv = (partial: string, weight: number) => {
    let sum = 0;
    for (let index = 0; index < partial.length; index += 1)
      sum += Number(partial[index]) * (weight - index);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  const first = dv(digits, 10);
  return `${digits}${first}${dv(`${digits}${first}`, 11)}`;
}

const DEMO_PEOPLE: ReadonlyArray<{
  name: string;
  email: string;
  role: Role;
  unit: string;
  cpfBase: string;
}> = [
  {
    name: 'Auditora Demonstração',
    email: 'auditor@demo.exame.local',
    role: 'auditor',
    unit: 'DEMO',
    cpfBase: '100200301',
  },
  // A second DEMO auditor: a decision confirmed by a different auditor (the
  // two-person rule, the re-check of approvals) can be tried in the demo.
  {
    name: 'Auditor Revisor Demonstração',
    email: 'auditor2@demo.exame.local',
    role: 'auditor',
    unit: 'DEMO',
    cpfBase: '100200307',
  },
  {
    name: 'Examinador Demonstração',
    email: 'examinador@demo.exame.local',
    role: 'VIEWER',
    unit: 'DEMO',
    cpfBase: '100200302',
  },
  {
    name: 'Fiscal de Sala Demonstração',
    email: 'fiscal@demo.exame.local',
    role: 'ROOM_INSPECTOR',
    unit: 'DEMO',
    cpfBase: '100200303',
  },
  {
    name: 'Administradora Distrito Federal',
    email: 'admin.df@demo.exame.local',
    role: 'ADMIN',
    unit: 'DF',
    cpfBase: '100200304',
  },
  // Two DF examiners: the check-in of DF asks each one's face (spec 5).
  {
    name: 'Examinadora Distrito Federal',
    email: 'examinadora.df@demo.exame.local',
    role: 'VIEWER',
    unit: 'DF',
    cpfBase: '100200305',
  },
  {
    name: 'Fiscal de Sala Distrito Federal',
    email: 'fiscal.df@demo.exame.local',
    role: 'ROOM_INSPECTOR',
    unit: 'DF',
    cpfBase: '100200306',
  },
];

/** The advisory lock of the first start (any constant number, the same on every instance). */
const FIRST_START_LOCK = 7_301_004;

export async function seedFirstStart(
  db: Database,
  config: Pick<AppConfig, 'adminEmail' | 'adminPassword' | 'seedDemo' | 'adminFederativeUnit'>,
  hasher: PasswordHasher,
): Promise<FirstStartResult> {
  if ((await countUsers(db)) > 0) return null;
  const unit = config.adminFederativeUnit;
  if (!unit) {
    throw new ConfigError(
      'Configuração inválida:\n  - ADMIN_FEDERATIVE_UNIT: o banco está vazio e o modo de demonstração está desligado; informe a sigla da unidade do primeiro administrador (ex.: DF)',
    );
  }
  const password = config.adminPassword ?? randomPassword();
  const passwordHash = await hasher.hash(password);
  const adminEmail = config.adminEmail ?? 'admin@demo.exame.local';
  const accounts: SeededAccount[] = [
    { email: adminEmail, role: 'ADMIN', name: 'Administrador', unit },
  ];
  const seeded = await db.transaction(async (tx) => {
    // Instances starting together on an empty database: one seeds, the others find it seeded.
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_START_LOCK})`);
    if ((await countUsers(tx)) > 0) return false;
    await insertUser(tx, {
      name: 'Administrador',
      email: adminEmail,
      cpf: cpfFromBase('100200300'),
      federativeUnit: unit,
      role: 'ADMIN',
      passwordHash,
    });
    // The unit starts with the usual disqualification reasons; its ADMIN edits them.
    await seedDefaultReasons(tx, unit);
    if (!config.seedDemo) return true;
    for (const demoUnit of new Set(DEMO_PEOPLE.map((person) => person.unit))) {
      await seedDefaultReasons(tx, demoUnit);
    }
    for (const person of DEMO_PEOPLE) {
      await insertUser(tx, {
        name: person.name,
        email: person.email,
        cpf: cpfFromBase(person.cpfBase),
        federativeUnit: person.unit,
        role: person.role,
        passwordHash,
        isDemo: true,
      });
      accounts.push({
        email: person.email,
        role: person.role,
        name: person.name,
        unit: person.unit,
      });
    }
    return true;
  });
  if (!seeded) return null;
  return { password, passwordFromEnv: config.adminPassword !== undefined, accounts };
}

export function describeFirstStart(result: NonNullable<FirstStartResult>): string {
  const lines = [
    'Primeiro acesso — contas criadas:',
    ...result.accounts.map(
      (account) => `  ${account.role.padEnd(15)} ${account.unit.padEnd(5)} ${account.email}`,
    ),
    result.passwordFromEnv
      ? '  Senha: a definida em ADMIN_PASSWORD'
      : `  Senha (mostrada só agora, guarde-a): ${result.password}`,
  ];
  return lines.join('\n');
}
