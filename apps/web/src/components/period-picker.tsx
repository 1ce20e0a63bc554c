/**
 * The report period picker (spec 2): a date range in Portuguese — day and
 * month names from dayjs `pt-br`, the week starting on Sunday and a
 * week-number column headed `Sm`. Mantine writes `#` over the week-number
 * column and offers no prop for it, so the header text is replaced in the
 * DOM as the calendar renders (React never rewrites that constant text).
 * Days are `YYYY-MM-DD` calendar days; turning them into instants is the
 * API's business (America/Sao_Paulo).
 */
import { DatePickerInput, type DatePickerPreset } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { addDays, dayInZone } from '@exame/shared';
import { useEffect, useId, useMemo } from 'react';

export type PeriodValue = [string | null, string | null];

export const WEEK_NUMBER_HEADER = 'Sm';
const WEEKDAYS_ROW_CLASS = 'period-picker-weekdays';

function relabelWeekNumberHeaders(root: ParentNode): void {
  for (const cell of root.querySelectorAll<HTMLElement>(`.${WEEKDAYS_ROW_CLASS} > :first-child`)) {
    if (cell.textContent !== '#') continue;
    cell.textContent = WEEK_NUMBER_HEADER;
    cell.setAttribute('abbr', 'Semana');
    cell.setAttribute('title', 'Semana do ano');
  }
}

/** Keeps every week-number header of the open calendars reading `Sm`. */
function useWeekNumberHeader(): void {
  useEffect(() => {
    relabelWeekNumberHeaders(document);
    const observer = new MutationObserver((mutations) => {
      if (mutations.some((mutation) => mutation.addedNodes.length > 0)) {
        relabelWeekNumberHeaders(document);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
}

function presetsFor(today: string): DatePickerPreset<'range'>[] {
  const monthStart = `${today.slice(0, 8)}01`;
  return [
    { value: [today, today], label: 'Hoje' },
    { value: [addDays(today, -1), addDays(today, -1)], label: 'Ontem' },
    { value: [addDays(today, -6), today], label: 'Últimos 7 dias' },
    { value: [addDays(today, -29), today], label: 'Últimos 30 dias' },
    { value: [monthStart, today], label: 'Este mês' },
  ];
}

export type PeriodPickerProps = {
  value: PeriodValue;
  onChange: (value: PeriodValue) => void;
  label?: string;
  maw?: number | string;
};

export function PeriodPicker({ value, onChange, label = 'Período', maw = 300 }: PeriodPickerProps) {
  useWeekNumberHeader();
  const presets = useMemo(() => presetsFor(dayInZone(new Date())), []);
  // One id for the field and its calendar: the calendar (a dialog) is named by the field.
  const id = useId();
  return (
    <DatePickerInput
      id={id}
      popoverProps={{ id }}
      type="range"
      label={label}
      placeholder="Selecione o período"
      value={value}
      onChange={(next) => onChange([next[0] ?? null, next[1] ?? null])}
      locale="pt-br"
      firstDayOfWeek={0}
      weekdayFormat="ddd"
      valueFormat="DD/MM/YYYY"
      withWeekNumbers
      allowSingleDateInRange
      presets={presets}
      numberOfColumns={1}
      leftSection={<IconCalendar size={16} aria-hidden />}
      clearable
      clearButtonProps={{ 'aria-label': 'Limpar período' }}
      nextLabel="Próximo mês"
      previousLabel="Mês anterior"
      // The month and year buttons keep their visible text as their name (WCAG 2.5.3).
      ariaLabels={{
        nextMonth: 'Próximo mês',
        previousMonth: 'Mês anterior',
        nextYear: 'Próximo ano',
        previousYear: 'Ano anterior',
        nextDecade: 'Próxima década',
        previousDecade: 'Década anterior',
      }}
      classNames={{ weekdaysRow: WEEKDAYS_ROW_CLASS }}
      maw={maw}
      miw={240}
    />
  );
}
