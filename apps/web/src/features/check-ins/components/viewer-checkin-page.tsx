/**
 * `/viewer-checkin` (title 'Sala de prova'): the examiner opens the room of a
 * service post and closes it (spec 2, 4, 5, 8).
 *
 * The examiner's open record comes from the server (`myOpenCheckIns`), on
 * any device and after any sign-in: the post the browser kept
 * (`EP_SCHEDULING_LOCAL`, cleared at logout) is not needed to find it, and is
 * set to the record's post when it differs. Without an open record: the post
 * of the examiner's unit, kept as `EP_SCHEDULING_LOCAL` and
 * `schedulingLocalDescription`, and the entry form (open-room-form.tsx). With
 * one: the open record (open-room.tsx) until the last examiner has left.
 */
import { Alert, Button, Card, Center, Select, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { CheckInRecord, MyOpenCheckIn } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { appStore, useAppState } from '../../../lib/app-store';
import { activePostsQuery } from '../../../api/unit-posts';
import { checkInConfigQuery, checkInRecordQuery, myOpenCheckInsQuery } from '../api/check-ins';
import { formatTime, roomOf } from './check-in-parts';
import { OpenRoom } from './open-room';
import { OpenRoomForm } from './open-room-form';
import { LoadingSpinner } from '../../../components/loading-spinner';

export function ViewerCheckinPage() {
  const user = useAppState((state) => state.user);
  const cpfViewer = useAppState((state) => state.cpfViewer);
  const post = useAppState((state) => state.schedulingLocal);
  const unit = user?.federativeUnit ?? '';
  const viewerCpf = cpfViewer ?? user?.cpf ?? '';
  const config = useQuery(checkInConfigQuery(unit));
  const posts = useQuery(activePostsQuery(unit));
  const mine = useQuery(myOpenCheckInsQuery());
  /** Which of the examiner's open records is on screen (the first, unless they chose). */
  const [shownId, setShownId] = useState<string | null>(null);
  /** A record named by a failed check-in (spec 8), opened on request. */
  const [keptId, setKeptId] = useState<string | null>(null);
  const kept = useQuery({ ...checkInRecordQuery(keptId ?? ''), enabled: keptId !== null });
  const [closed, setClosed] = useState<CheckInRecord | null>(null);

  const own = mine.data ?? [];
  const shown = own.find((entry) => entry.record.id === shownId) ?? own[0] ?? null;
  const record = shown?.record ?? (kept.data?.status === 'open' ? kept.data : null);

  // The server's record wins over what the browser kept: the post follows it.
  const openPost = shown?.record.schedulingLocal ?? null;
  const openPostName = shown?.record.schedulingLocalDescription ?? null;
  useEffect(() => {
    if (openPost && openPost !== post) appStore.setSchedulingLocal(openPost, openPostName);
  }, [openPost, openPostName, post]);

  const onClosed = (last: CheckInRecord) => {
    setClosed(last);
    setKeptId(null);
    setShownId(null);
    appStore.setCpfViewer(null);
    appStore.setUserProctoring(null);
  };

  return (
    <Stack gap="lg" maw={1100}>
      <div>
        {/* The shell shows the route's title ('Sala de prova') as the page's h1. */}
        <Title order={2}>Entrada e saída dos examinadores</Title>
        <Text c="dimmed" size="sm">
          Escolha o posto, valide os examinadores e abra a sala; ao final, registre a saída de cada
          um.
        </Text>
      </div>

      <Card withBorder radius="md" padding="md">
        <Select
          label="Posto de atendimento"
          placeholder={posts.isPending ? 'Carregando postos…' : 'Selecione o posto da sala'}
          data={(posts.data ?? []).map((local) => ({
            value: local.identifier,
            label: `${local.description} (${local.identifier})`,
          }))}
          value={post}
          onChange={(identifier) => {
            const local = posts.data?.find((item) => item.identifier === identifier);
            appStore.setSchedulingLocal(identifier, local?.description ?? null);
            setKeptId(null);
            setClosed(null);
          }}
          disabled={posts.isPending || record !== null}
          searchable
          nothingFoundMessage="Nenhum posto encontrado"
          maw={520}
          error={posts.isError ? posts.error.message : undefined}
        />
      </Card>

      {closed && (
        <Alert
          color="teal"
          variant="light"
          title="Sala encerrada"
          withCloseButton
          onClose={() => setClosed(null)}
        >
          A sala do posto {closed.schedulingLocalDescription} foi encerrada às{' '}
          {closed.checkOutDate ? formatTime(closed.checkOutDate) : '—'}, com a saída de todos os
          examinadores registrada.
        </Alert>
      )}

      {mine.isPending || config.isPending ? (
        <Center p="xl">
          <LoadingSpinner label="Carregando a sala" />
        </Center>
      ) : mine.isError || config.isError ? (
        <Alert color="red" title="Erro">
          {(mine.error ?? config.error)?.message}
        </Alert>
      ) : record ? (
        <Stack gap="md">
          {shown && <OtherOpenRooms own={own} shownId={shown.record.id} onShow={setShownId} />}
          <OpenRoom key={record.id} record={record} onClosed={onClosed} />
        </Stack>
      ) : !post ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          Escolha o posto de atendimento da sala para registrar a entrada.
        </Alert>
      ) : kept.isError ? (
        <Alert color="red" title="Erro" withCloseButton onClose={() => setKeptId(null)}>
          {kept.error.message}
        </Alert>
      ) : user && config.data ? (
        <OpenRoomForm
          config={config.data}
          post={post}
          viewerCpf={viewerCpf}
          user={{ name: user.name, cpf: user.cpf, email: user.email }}
          onKeep={setKeptId}
        />
      ) : null}
    </Stack>
  );
}

/**
 * The examiner's other open records: one they left while the other examiner
 * is still in (this device lets that one out too), shown on request.
 */
function OtherOpenRooms({
  own,
  shownId,
  onShow,
}: {
  own: readonly MyOpenCheckIn[];
  shownId: string;
  onShow: (id: string) => void;
}) {
  const others = own.filter((entry) => entry.record.id !== shownId);
  if (others.length === 0) return null;
  return (
    <Alert color="blue" variant="light" title="Outras salas abertas" data-testid="other-open-rooms">
      <Stack gap="xs" align="flex-start">
        {others.map((entry) => (
          <Text size="sm" key={entry.record.id}>
            {roomOf(entry.record)}, aberta às {formatTime(entry.record.checkInDate)}
            {entry.inRoom ? '' : ' (a sua saída já foi registrada)'}.{' '}
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => onShow(entry.record.id)}
              aria-label={`Ver a sala ${roomOf(entry.record)}`}
            >
              Ver esta sala
            </Button>
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
