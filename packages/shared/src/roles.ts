/**
 * User roles (spec 1 and 6), spelled as the specification writes them: the
 * auditor role is `auditor`, the others are upper case. The same spelling is
 * used on the wire, in the code and in the database (one constant, no
 * mapping at the edges); TypeScript checks every literal against `Role`.
 */
export const ROLES = ['ADMIN', 'auditor', 'VIEWER', 'ROOM_INSPECTOR'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that may take part in an exam room as examiner (spec 6). */
export const EXAMINER_ROLES: readonly Role[] = ['VIEWER', 'ROOM_INSPECTOR'];

/**
 * Roles that open an exam's detail (`exames/:schedulingId`: the candidate,
 * the timeline, the photos). Examiners see the exams of their room on its
 * board and lists, and nothing more.
 */
export const EXAM_DETAIL_ROLES: readonly Role[] = ['ADMIN', 'auditor'];

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  ADMIN: 'Administrador',
  auditor: 'Auditor',
  VIEWER: 'Examinador',
  ROOM_INSPECTOR: 'Fiscal de sala',
};
