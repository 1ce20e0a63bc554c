/**
 * `photo-audit/:examId` (spec 2): the auditor holding the exam marks each
 * capture compatible or incompatible with the candidate's reference photo,
 * least like the reference first. Keyboard: C compatível, I incompatível,
 * ← → (or J K) to move. An incompatible capture shows in the exam's audit
 * with the name of the auditor who marked it.
 */
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Image,
  Kbd,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import type { PhotoVerdict } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { auditDetailQuery, auditKeys, markPhoto } from '../api/audits';
import { useAuditClaim } from '../use-audit-claim';
import { FaceBadge, MarkBadge, ReferencePhoto } from './audit-photos';

/** Keys typed into a field or with a modifier are not shortcuts. */
function isShortcut(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target as HTMLElement | null;
  if (!target) return true;
  const tag = target.tagName;
  return !(tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable);
}

export function PhotoAuditPage() {
  const { examId = '' } = useParams();
  const queryClient = useQueryClient();
  const { state } = useAuditClaim(examId);
  const detail = useQuery({ ...auditDetailQuery(examId), enabled: state.kind !== 'claiming' });
  const [index, setIndex] = useState(0);
  const captures = detail.data?.captures ?? [];
  const current = captures[Math.min(index, Math.max(captures.length - 1, 0))];
  const canMark = state.kind === 'holding' && detail.data?.claim?.mine === true;

  const mark = useMutation({
    mutationFn: (input: { photoId: string; verdict: PhotoVerdict }) =>
      markPhoto(examId, input.photoId, input.verdict),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: auditKeys.detail(examId) });
      void queryClient.invalidateQueries({ queryKey: auditKeys.photoMine });
      setIndex((position) => Math.min(position + 1, Math.max(captures.length - 1, 0)));
    },
    onError: (error) => toast.error(error.message),
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event) || captures.length === 0) return;
      const key = event.key.toLowerCase();
      if (key === 'arrowright' || key === 'k') {
        setIndex((position) => Math.min(position + 1, captures.length - 1));
      } else if (key === 'arrowleft' || key === 'j') {
        setIndex((position) => Math.max(position - 1, 0));
      } else if ((key === 'c' || key === 'i') && canMark && current && !mark.isPending) {
        mark.mutate({ photoId: current.id, verdict: key === 'c' ? 'compatible' : 'incompatible' });
      } else {
        return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [captures.length, canMark, current, mark]);

  const marked = captures.filter((photo) => photo.mark).length;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/auditoria/${examId}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden /> Voltar à auditoria do exame
        </Group>
      </Anchor>
      <QueryContent
        query={detail}
        loadingLabel="Carregando as capturas"
        isEmpty={(data) => data.captures.length === 0}
        empty="Este exame não tem capturas para auditar."
      >
        {(data) => (
          <Stack gap="md">
            <Group justify="space-between" align="flex-end">
              <div>
                <Title order={2}>Auditoria de fotos · {data.exam.candidateName}</Title>
                <Text size="sm" c="dimmed">
                  Agendamento {data.exam.schedulingId} · menos parecidas com a referência primeiro
                </Text>
              </div>
              <Stack gap={4} w={220}>
                <Text size="sm" aria-live="polite" data-testid="photo-progress">
                  {marked} de {captures.length} marcadas
                </Text>
                <Progress value={(marked / captures.length) * 100} aria-hidden />
              </Stack>
            </Group>
            {!canMark && (
              <Alert color="yellow" icon={<IconAlertCircle size={18} />}>
                {state.kind === 'held-by-other'
                  ? `Em auditoria por ${state.alert.auditor.auditorName}: você pode ver as capturas, mas não marcá-las.`
                  : state.kind === 'closed'
                    ? state.message
                    : 'Só o auditor que está com o exame marca as capturas.'}
              </Alert>
            )}
            <Text size="xs" c="dimmed">
              Atalhos: <Kbd>C</Kbd> compatível · <Kbd>I</Kbd> incompatível · <Kbd>←</Kbd>{' '}
              <Kbd>→</Kbd> anterior e próxima
            </Text>
            <Grid>
              <Grid.Col span={{ base: 12, sm: 5 }}>
                <ReferencePhoto photo={data.reference} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 7 }}>
                {current && (
                  <Paper withBorder radius="md" p="sm" data-testid="current-capture">
                    <Text size="sm" fw={600} mb={6}>
                      Captura {captures.indexOf(current) + 1} de {captures.length} ·{' '}
                      {dayjs(current.capturedAt).format('DD/MM/YYYY HH:mm:ss')}
                    </Text>
                    <Image
                      src={current.url}
                      radius="sm"
                      alt="Captura em auditoria"
                      mah={520}
                      fit="contain"
                    />
                    <Group gap={6} mt={6}>
                      <FaceBadge photo={current} reference={false} threshold={data.threshold} />
                      <MarkBadge photo={current} />
                    </Group>
                    <Group mt="sm">
                      <Button
                        color="teal"
                        disabled={!canMark}
                        loading={mark.isPending}
                        onClick={() => mark.mutate({ photoId: current.id, verdict: 'compatible' })}
                      >
                        Compatível (C)
                      </Button>
                      <Button
                        color="red"
                        disabled={!canMark}
                        loading={mark.isPending}
                        onClick={() =>
                          mark.mutate({ photoId: current.id, verdict: 'incompatible' })
                        }
                      >
                        Incompatível (I)
                      </Button>
                      <Button
                        variant="default"
                        onClick={() => setIndex(Math.max(captures.indexOf(current) - 1, 0))}
                      >
                        Anterior
                      </Button>
                      <Button
                        variant="default"
                        onClick={() =>
                          setIndex(Math.min(captures.indexOf(current) + 1, captures.length - 1))
                        }
                      >
                        Próxima
                      </Button>
                    </Group>
                  </Paper>
                )}
              </Grid.Col>
            </Grid>
            <SimpleGrid cols={{ base: 3, sm: 6, md: 8 }} spacing="xs" data-testid="capture-strip">
              {captures.map((photo, position) => (
                <UnstyledButton
                  key={photo.id}
                  onClick={() => setIndex(position)}
                  aria-label={`Captura ${position + 1}${photo.mark ? `, marcada ${photo.mark.verdict === 'compatible' ? 'compatível' : 'incompatível'}` : ''}`}
                  aria-current={photo.id === current?.id ? 'true' : undefined}
                  style={{
                    outline:
                      photo.id === current?.id
                        ? '3px solid var(--mantine-color-blue-6)'
                        : undefined,
                    borderRadius: 6,
                  }}
                >
                  <Image
                    src={photo.url}
                    radius="sm"
                    alt=""
                    style={{
                      border: photo.mark
                        ? `3px solid var(--mantine-color-${photo.mark.verdict === 'compatible' ? 'teal' : 'red'}-6)`
                        : undefined,
                    }}
                  />
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Stack>
        )}
      </QueryContent>
    </Stack>
  );
}
