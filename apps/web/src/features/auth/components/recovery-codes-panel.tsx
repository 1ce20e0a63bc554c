/**
 * The recovery codes, shown once when they are made (the first factor, or a
 * new set): each opens one sign-in without the app or the passkey. They can
 * be copied or saved as a .txt, and the person confirms they kept them
 * before going on.
 */
import {
  Alert,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { saveFile } from '../../../lib/save-file';

const FILE_NAME = 'codigos-de-recuperacao.txt';

function codesFile(codes: readonly string[]): Blob {
  const lines = [
    'Exame Teórico — códigos de recuperação da verificação em duas etapas',
    `Gerados em ${new Date().toLocaleString('pt-BR')}. Cada código funciona uma única vez.`,
    '',
    ...codes,
    '',
  ];
  return new Blob([lines.join('\n')], { type: 'text/plain;charset=utf-8' });
}

export function RecoveryCodesPanel({
  codes,
  doneLabel,
  onDone,
  headingOrder = 3,
}: {
  codes: readonly string[];
  /** "Continuar" at sign-in, "Concluir" on the security page. */
  doneLabel: string;
  onDone: () => void;
  headingOrder?: 2 | 3 | 4;
}) {
  const [kept, setKept] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Title order={headingOrder} size="h4" ref={heading} tabIndex={-1}>
        Guarde os códigos de recuperação
      </Title>
      <Alert color="yellow" variant="light">
        Sem o aplicativo autenticador ou a chave de acesso, cada código abre a sua conta uma única
        vez. Eles são mostrados só agora: copie ou baixe e guarde em lugar seguro.
      </Alert>
      <Paper withBorder p="sm" radius="md" bg="gray.0">
        <SimpleGrid
          component="ul"
          cols={2}
          spacing="xs"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label="Códigos de recuperação"
        >
          {codes.map((code) => (
            <Text component="li" key={code} ff="monospace" size="sm" ta="center">
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group gap="xs" grow>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copy}>
              {copied ? 'Copiados' : 'Copiar'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => saveFile(codesFile(codes), FILE_NAME)}
        >
          Baixar (.txt)
        </Button>
      </Group>
      <Checkbox
        label="Guardei os códigos em lugar seguro"
        checked={kept}
        onChange={(event) => setKept(event.currentTarget.checked)}
      />
      <Button onClick={onDone} disabled={!kept} fullWidth>
        {doneLabel}
      </Button>
    </Stack>
  );
}
