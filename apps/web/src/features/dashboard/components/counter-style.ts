/** Colours of the report counters on the dashboard, the same on tiles, cards and charts. */
import type { ReportCounter } from '@exame/shared';

export const COUNTER_COLORS: Readonly<Record<ReportCounter, string>> = {
  total: 'brand.7',
  scheduled: 'gray.6',
  started: 'blue.6',
  finished: 'indigo.6',
  approved: 'teal.6',
  reproved: 'red.6',
  pendingAudit: 'yellow.6',
  absence: 'orange.6',
  interrupted: 'grape.6',
  disqualified: 'pink.7',
};

export const numberFormat = new Intl.NumberFormat('pt-BR');
