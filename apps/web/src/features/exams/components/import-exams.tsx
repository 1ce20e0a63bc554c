/** CSV import of scheduled exams (ADMIN): upload progress, then the summary or every problem with its line. */
import {
  Alert,
  Button,
  FileInput,
  List,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { CSV_IMPORT_COLUMNS } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { examKeys, importExamsCsv, type ImportOutcome } from '../api/exams';

type Problem = { path: string; message: string };
const MAX_FILE_BYTES = 10 * 1024 * 1024;

export function ImportExamsButton({ icon }: { icon?: ReactNode }) {
  const [opened, setOpened] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [error, setError] = useState<{ message: string; problems: Problem[] } | null>(null);
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: (csv: File) => importExamsCsv(csv, setProgress),
    onSuccess: async (result) => {
      setOutcome(result);
      toast.success(`${result.created} exames importados.`, 'Importação concluída');
      await queryClient.invalidateQueries({ queryKey: examKeys.all });
    },
    onError: (failure) => {
      setError({
        message: failure.message,
        problems: failure instanceof ApiError ? failure.details : [],
      });
      setProgress(null);
    },
  });

  const reset = () => {
    setFile(null);
    setProgress(null);
    setOutcome(null);
    setError(null);
  };
  const close = () => {
    if (progress !== null && progress < 1 && !outcome && !error) return;
    setOpened(false);
    reset();
  };

  const send = () => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setError({ message: 'O arquivo passa de 10 MB. Divida-o em partes menores.', problems: [] });
      return;
    }
    setError(null);
    setOutcome(null);
    setProgress(0);
    upload.mutate(file);
  };

  const uploading = progress !== null && !outcome && !error;

  return (
    <>
      <Button leftSection={icon} onClick={() => setOpened(true)}>
        Importar CSV
      </Button>
      <AppModal opened={opened} onClose={close} title="Importar exames agendados" width="640px">
        <Stack gap="md">
          <Text size="sm">
            Envie um arquivo CSV (separado por ponto e vírgula ou vírgula) com o cabeçalho{' '}
            {/* The long header wraps instead of widening (and scrolling) the dialog. */}
            <Text span ff="monospace" size="xs" style={{ overflowWrap: 'anywhere' }}>
              {CSV_IMPORT_COLUMNS.join(';')}
            </Text>
            . Datas no formato dd/mm/aaaa hh:mm (horário de Brasília). Se alguma linha tiver
            problema, nada é importado.
          </Text>
          <FileInput
            label="Arquivo CSV"
            placeholder="Selecione o arquivo"
            accept=".csv,text/csv"
            value={file}
            onChange={(next) => {
              reset();
              setFile(next);
            }}
            clearable
            disabled={uploading}
          />
          {progress !== null && (
            <Stack gap={4}>
              <Progress
                value={Math.round(progress * 100)}
                animated={uploading}
                aria-label="Progresso do envio"
              />
              <Text size="xs" c="dimmed">
                {progress < 1
                  ? `Enviando... ${Math.round(progress * 100)}%`
                  : outcome
                    ? 'Concluído.'
                    : 'Validando e gravando...'}
              </Text>
            </Stack>
          )}
          {outcome && (
            <Alert color="teal" title="Importação concluída" role="status">
              {outcome.created} {outcome.created === 1 ? 'exame importado' : 'exames importados'} de{' '}
              {outcome.rows} {outcome.rows === 1 ? 'linha' : 'linhas'}.
            </Alert>
          )}
          {error && (
            <Alert color="red" title="Nada foi importado" role="alert">
              <Stack gap="xs">
                <Text size="sm">{error.message}</Text>
                {error.problems.length > 0 && (
                  <ScrollArea.Autosize mah={260}>
                    <Table withTableBorder striped fz="sm" data-testid="import-problems">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Onde</Table.Th>
                          <Table.Th>Problema</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {error.problems.map((problem, index) => (
                          <Table.Tr key={`${problem.path}-${index}`}>
                            <Table.Td>{problem.path}</Table.Td>
                            <Table.Td>{problem.message}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea.Autosize>
                )}
              </Stack>
            </Alert>
          )}
          {!outcome && (
            <List size="xs" c="dimmed">
              <List.Item>Até 50 000 linhas e 10 MB por arquivo.</List.Item>
              <List.Item>Um agendamento já cadastrado não é importado de novo.</List.Item>
            </List>
          )}
          <Button
            onClick={() => (outcome ? close() : send())}
            disabled={!file || uploading}
            loading={uploading}
          >
            {outcome ? 'Fechar' : 'Importar'}
          </Button>
        </Stack>
      </AppModal>
    </>
  );
}
