/** User roles (spec 1 and 6). */
export const ROLES = ['ADMIN', 'AUDITOR', 'VIEWER', 'ROOM_INSPECTOR'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that may take part in an exam room as examiner (spec 6). */
export const EXAMINER_ROLES: readonly Role[] = ['VIEWER', 'ROOM_INSPECTOR'];

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  ADMIN: 'Administrador',
  AUDITOR: 'Auditor',
  VIEWER: 'Examinador',
  ROOM_INSPECTOR: 'Fiscal de sala',
};
