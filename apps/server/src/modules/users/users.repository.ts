/** SQL for users; every list and lookup for a signed-in user is scoped to a federative unit. */
import type { Role } from '@exame/shared';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { literal, placeholders, preparedQueries, type Bind, type Executor } from '../../db/client';
import { escapeLike } from '../../db/sql-text';
import { users } from '../../db/schema/index';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserByCpf(db: Executor, cpf: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.cpf, cpf)).limit(1);
  return row;
}

/** A user holding this e-mail or this CPF, in any unit (both are unique in the installation). */
export async function findUserByEmailOrCpf(
  db: Executor,
  email: string,
  cpf: string,
): Promise<Pick<UserRow, 'email' | 'cpf'> | undefined> {
  const [row] = await db
    .select({ email: users.email, cpf: users.cpf })
    .from(users)
    .where(or(eq(users.email, email), eq(users.cpf, cpf)))
    .limit(1);
  return row;
}

/** How a user is looked up inside a unit. */
export type UserLookup = { id: string } | { cpf: string } | { email: string };

export async function findUserInUnit(
  db: Executor,
  unit: string,
  lookup: UserLookup,
): Promise<UserRow | undefined> {
  const where =
    'id' in lookup
      ? eq(users.id, lookup.id)
      : 'cpf' in lookup
        ? eq(users.cpf, lookup.cpf)
        : eq(users.email, lookup.email);
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.federativeUnit, unit), where))
    .limit(1);
  return row;
}

export async function insertUser(db: Executor, row: NewUserRow): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateUser(
  db: Executor,
  id: string,
  patch: Partial<Pick<UserRow, 'registerStatus' | 'role' | 'passwordHash'>>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

type UserListOptions = {
  page: number;
  pageSize: number;
  search?: string;
  roles?: readonly Role[];
};

function userListConditions(
  unit: string,
  options: UserListOptions,
  bind: Bind = literal,
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(users.federativeUnit, bind('unit', unit))];
  if (options.roles) {
    conditions.push(
      inArray(
        users.role,
        options.roles.map((role, index) => bind(`role${index}`, role)),
      ),
    );
  }
  const search = options.search?.trim();
  if (search) {
    const pattern = bind('pattern', `%${escapeLike(search)}%`);
    const digits = search.replace(/\D/g, '');
    conditions.push(
      or(
        ilike(users.name, pattern),
        ilike(users.email, pattern),
        digits.length >= 3 ? ilike(users.cpf, bind('digits', `%${digits}%`)) : undefined,
      ),
    );
  }
  return and(...conditions);
}

function buildUserListQuery(db: Executor, where: SQL | undefined) {
  return db
    .select({
      user: users,
      total: sql<number>`(select count(*) from ${users} where ${where})`.mapWith(Number),
      // Whether the ADMIN's list offers to reset the user's second factor.
      // Written out: inside a select, drizzle names the outer column without its table.
      hasSecondFactor:
        sql<number>`(select count(*) from user_factors f where f.user_id = "users"."id")`.mapWith(
          Number,
        ),
    })
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('');
}

const userListQueries = preparedQueries<ReturnType<typeof buildUserListQuery>>();

/**
 * One page of the unit's users with the total, in one statement prepared once
 * per shape (as `listExams` does: the total is a scalar subquery; a page past
 * the end counts apart).
 */
export async function listUsersInUnit(
  db: Executor,
  unit: string,
  options: UserListOptions,
): Promise<{ items: Array<UserRow & { hasSecondFactor: boolean }>; total: number }> {
  const { bind, values } = placeholders();
  const where = userListConditions(unit, options, bind);
  const search = options.search?.trim();
  const shape = [
    options.roles?.length ?? '',
    search ? 's' : '',
    search && search.replace(/\D/g, '').length >= 3 ? 'd' : '',
  ].join('|');
  const query = userListQueries(db, shape, () => buildUserListQuery(db, where));
  const rows = await query.execute({
    ...values,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && options.page > 1) {
    const [counted] = await db
      .select({ total: count() })
      .from(users)
      .where(userListConditions(unit, options));
    total = counted?.total ?? 0;
  }
  return {
    items: rows.map((row) => ({ ...row.user, hasSecondFactor: row.hasSecondFactor > 0 })),
    total,
  };
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ total: count() }).from(users);
  return row?.total ?? 0;
}
