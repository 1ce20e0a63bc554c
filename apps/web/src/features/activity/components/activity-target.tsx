/**
 * The target of an activity event as a person reads it: a page of the app by
 * its screen's name (the route table's titles, handed in by the app), with
 * the exam's scheduling when the address names one; a target of the server
 * (`exam:<scheduling>`, `user:<id>`…) by what it names. The raw target stays
 * in the event's details.
 */
import { Text } from '@mantine/core';

/** The screen an address of the app opens (its name and the parameters of its route). */
export type ScreenOf = (
  path: string,
) => { name: string; params: Readonly<Record<string, string | undefined>> } | null;

export type ReadableTarget = { label: string; detail: string | null };

const NAMESPACE_LABELS: Readonly<Record<string, string>> = {
  exam: 'Exame',
  user: 'Usuário',
  cpf: 'Pessoa (CPF pseudonimizado)',
  unit: 'Unidade',
  room: 'Sala de prova',
  local: 'Posto de atendimento',
  file: 'Arquivo',
  template: 'Modelo',
  certificate: 'Certificado',
  account: 'Conta',
  device: 'Dispositivo',
};
const SERVER_TARGET = /^([a-z]+):(.+)$/;
/** Internal ids and pseudonyms say nothing to a person: they stay in the details. */
const OPAQUE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})$/i;

function readableValue(value: string | undefined): string | null {
  return value && !OPAQUE.test(value) ? value : null;
}

export function describeTarget(
  target: string | null | undefined,
  screenOf?: ScreenOf,
): ReadableTarget | null {
  if (!target) return null;
  if (target.startsWith('/')) {
    const screen = screenOf?.(target.split(/[?#]/)[0] ?? target);
    if (!screen) return { label: target, detail: null };
    const { schedulingId, cpf } = screen.params;
    const detail = schedulingId
      ? `Agendamento ${schedulingId}`
      : readableValue(cpf)
        ? `CPF ${cpf}`
        : null;
    return { label: screen.name, detail };
  }
  const server = SERVER_TARGET.exec(target);
  const label = server ? NAMESPACE_LABELS[server[1]!] : undefined;
  if (!server || !label) return { label: target, detail: null };
  return {
    label,
    detail: server[1] === 'cpf' ? null : readableValue(server[2]),
  };
}

/** The target in a table cell or a field: its name, and what it names under it. */
export function ActivityTarget({
  target,
  screenOf,
}: {
  target: string | null | undefined;
  screenOf?: ScreenOf;
}) {
  const readable = describeTarget(target, screenOf);
  if (!readable) return <>—</>;
  return (
    <>
      <Text span size="sm" display="block" data-testid="activity-target">
        {readable.label}
      </Text>
      {readable.detail && (
        <Text span size="xs" c="dimmed" display="block">
          {readable.detail}
        </Text>
      )}
    </>
  );
}
