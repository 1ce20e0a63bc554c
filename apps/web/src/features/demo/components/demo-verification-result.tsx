/**
 * The demo finished biometry screen (spec 2): what the verification of a
 * second capture found: the decision, the similarity and the distance
 * against the threshold (pt-BR numbers), the match, and each liveness check
 * (same face, continuous take, movements asked, depth) with the engine's note.
 */
import { Badge, Card, Group, List, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { DemoVerification } from '@exame/shared';
import dayjs from 'dayjs';

/** A score in pt-BR: `0.4123` -> `0,4123`, `0.55` -> `0,55`. */
export const formatScore = (value: number) =>
  value.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

const yesNo = (value: boolean) => (value ? 'Sim' : 'Não');

/** The take's checks: one face, one continuous take, the movements asked, a real head's depth. */
const LIVENESS_CHECKS = [
  ['sameFace', 'Mesmo rosto'],
  ['continuous', 'Filmagem contínua'],
  ['followed', 'Movimentos pedidos'],
  ['depth', 'Profundidade de um rosto real'],
] as const;

function Liveness({ liveness }: { liveness: DemoVerification['liveness'] }) {
  const outcome = !liveness.checked
    ? { label: 'Não verificada', color: 'gray' }
    : liveness.passed
      ? { label: 'Aprovada', color: 'teal' }
      : { label: 'Reprovada', color: 'red' };
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Text fw={600}>Vivacidade</Text>
        <Badge color={outcome.color} variant="light">
          {outcome.label}
        </Badge>
      </Group>
      {liveness.checks && (
        <List listStyleType="none" spacing={4} data-testid="liveness-checks">
          {LIVENESS_CHECKS.map(([key, label]) => {
            const passed = liveness.checks?.[key] === true;
            return (
              <List.Item key={key}>
                <Text span c={passed ? 'teal.8' : 'red.8'} fw={700} aria-hidden>
                  {passed ? '✓' : '✗'}
                </Text>{' '}
                {label}
                <VisuallyHidden>{passed ? ': aprovado' : ': reprovado'}</VisuallyHidden>
              </List.Item>
            );
          })}
        </List>
      )}
      {liveness.note && (
        <Text size="sm" c="dimmed" data-testid="liveness-note">
          {liveness.note}
        </Text>
      )}
    </Stack>
  );
}

export function DemoVerificationResult({ result }: { result: DemoVerification }) {
  const below = result.distance <= result.threshold;
  const rows = [
    ['Verificado', yesNo(result.verified)],
    ['Semelhança', formatScore(result.similarity)],
    [
      'Distância',
      `${formatScore(result.distance)} (${below ? 'dentro do' : 'acima do'} limite de ${formatScore(result.threshold)})`,
    ],
    ['Limite', formatScore(result.threshold)],
    ['Correspondência', yesNo(result.match)],
  ] as const;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="demo-verification-result">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3} size="h4">
              Resultado da biometria
            </Title>
            <Text size="xs" c="dimmed">
              Verificação de {dayjs(result.at).format('DD/MM/YYYY HH:mm')}
            </Text>
          </div>
          <Badge size="lg" color={result.verified ? 'teal' : 'red'} variant="filled">
            {result.verified ? 'Rosto verificado' : 'Não verificado'}
          </Badge>
        </Group>
        {result.message && <Text size="sm">{result.message}</Text>}
        <Table withTableBorder withColumnBorders={false} layout="fixed" maw={560}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Liveness liveness={result.liveness} />
      </Stack>
    </Card>
  );
}
