/**
 * The entry form of `/viewer-checkin` (spec 2, 4, 5, 8): the room of the post,
 * examiner 1 (the CPF of `cpfViewer` when kept, else the signed-in user's),
 * validated by face where the unit requires it (elsewhere the notice 'Aviso'
 * tells that face validation is only for DF), then the second-examiner
 * modal: examiner 2 by e-mail and password (and by face where required), or
 * nobody; a half-filled form does not open the room ('Atenção'). A refused
 * check-in is a red toast 'Erro' with the server's text; the record it met is
 * kept (which room, which post, since when) and can be opened.
 */
import { Alert, Button, Card, Group, Image, Select, Stack, Text, Title } from '@mantine/core';
import { IconDoorEnter, IconFaceId } from '@tabler/icons-react';
import {
  CHECK_IN_TEXTS,
  FACE_VALIDATION_ONLY_DF,
  maskCpf,
  secondExaminerState,
  type BiometricViewerCheckinResponse,
  type CheckInConfig,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { SimilarityBadge } from '../../../components/face/similarity-badge';
import { useFacialValidation } from '../../../components/face/use-facial-validation';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { appStore, useAppState } from '../../../lib/app-store';
import { roomsQuery } from '../../../api/unit-rooms';
import {
  checkInKeys,
  openRoom,
  requestFaceChallenge,
  validateExaminerFace,
} from '../api/check-ins';
import { formatTime } from './check-in-parts';
import { SecondExaminerModal, type SecondExaminerForm } from './second-examiner-modal';

/** The key of examiner 2's face check (examiner 1's is the CPF). */
const SECOND = 'examinador-2';

/** The open record a refused check-in met: what the server said of it (room, post, since when). */
type Conflict = { id: string; message: string };

export function OpenRoomForm({
  config,
  post,
  viewerCpf,
  user,
  onKeep,
}: {
  config: CheckInConfig;
  post: string;
  viewerCpf: string;
  user: { name: string; cpf: string; email: string };
  onKeep: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const second = useAppState((state) => state.userProctoring);
  const required = config.faceValidationRequired;
  const [firstFace, setFirstFace] = useState<BiometricViewerCheckinResponse | null>(null);
  const [secondFace, setSecondFace] = useState<BiometricViewerCheckinResponse | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [form, setForm] = useState<SecondExaminerForm>({
    email: '',
    password: '',
    validated: false,
  });
  const [failed, setFailed] = useState<Conflict | null>(null);
  // The room of the post the examiners take (required when the post has rooms).
  const rooms = useQuery(roomsQuery(post));
  const [chosenRoom, setChosenRoom] = useState<string | null>(null);
  const [roomError, setRoomError] = useState<string | null>(null);
  const free = (rooms.data ?? []).filter((room) => room.heldBy.length === 0);
  // A single free room is the obvious choice.
  const examRoomId = chosenRoom ?? (free.length === 1 && rooms.data ? free[0]!.id : null);
  const needsRoom = (rooms.data?.length ?? 0) > 0;
  const onFormChange = useCallback((next: SecondExaminerForm) => setForm(next), []);

  // Examiner 1 is named by the CPF; examiner 2 by the proof of the password check.
  const face = useFacialValidation({
    requestChallenge: (who) =>
      requestFaceChallenge({
        purpose: 'check-in',
        ...(who === SECOND && second
          ? { proctoringToken: second.proctoringToken }
          : { cpf: viewerCpf }),
      }),
    verify: (who, capture, context) =>
      validateExaminerFace({
        ...(who === SECOND && second
          ? { proctoringToken: second.proctoringToken }
          : { cpf: viewerCpf }),
        capture,
        uf: context.unit,
        local: post,
      }),
    onVerified: (result, who) => (who === SECOND ? setSecondFace(result) : setFirstFace(result)),
  });

  const checkIn = useMutation({
    mutationFn: () =>
      openRoom({
        viewers: [
          { cpf: viewerCpf, verificationId: firstFace?.verificationId },
          ...(second
            ? [
                {
                  proctoringToken: second.proctoringToken,
                  verificationId: secondFace?.verificationId,
                },
              ]
            : []),
        ],
        schedulingLocal: post,
        examRoomId,
      }),
    onSuccess: async () => {
      appStore.setCpfViewer(viewerCpf);
      toast.success('Sala aberta. Bom trabalho!', 'Sala de prova');
      await queryClient.invalidateQueries({ queryKey: checkInKeys.all });
    },
    onError: (error) => {
      toast.error(error.message);
      // The server names the record's room, post and time; its raw id stays out of sight.
      if (error instanceof ApiError && error.record) {
        setFailed({ id: error.record.id, message: error.message });
      }
      // A face check admits once: after a refusal, the examiners validate again.
      setFirstFace(null);
      setSecondFace(null);
    },
  });

  const firstName = viewerCpf === user.cpf ? user.name : (firstFace?.name ?? 'Examinador da sala');
  const ready = !required || firstFace !== null;
  // Never a face alone: examiner 1 who is not the signed-in user
  // types their own password in the capture, unless the unit allows face alone.
  const ownPassword = viewerCpf !== user.cpf && !config.faceAloneAllowed;

  const startOpening = () => {
    if (needsRoom && !examRoomId) {
      setRoomError('Escolha a sala de prova em que vai trabalhar.');
      document.getElementById('check-in-room')?.focus();
      return;
    }
    if (!required) {
      // Spec 5: outside DF the notice, then the room opens without face validation.
      showAlert({
        icon: 'warning',
        title: 'Aviso',
        message: FACE_VALIDATION_ONLY_DF,
        actions: [{ label: 'Ok', onClick: () => setModalOpen(true) }],
      });
      return;
    }
    setModalOpen(true);
  };

  /** Spec 4: the room opens with examiner 2 validated (and by face where required) or nobody. */
  const canOpen = () => {
    if (secondExaminerState(form) === 'half-filled') {
      showAlert({
        icon: 'warning',
        title: CHECK_IN_TEXTS.halfFilledTitle,
        message: CHECK_IN_TEXTS.halfFilled,
      });
      return false;
    }
    if (required && second && !secondFace) {
      showAlert({
        icon: 'warning',
        title: CHECK_IN_TEXTS.halfFilledTitle,
        message:
          'Valide o rosto do examinador 2 para abrir a sala, ou clique em Limpar para abrir sozinho.',
      });
      return false;
    }
    return true;
  };

  return (
    <Stack gap="md">
      {(rooms.isPending || needsRoom || rooms.isError) && (
        <Card withBorder radius="md" padding="lg">
          <Select
            id="check-in-room"
            label="Sala de prova"
            description="A entrada aberta é a custódia desta sala: só os examinadores dela agem no seu quadro."
            placeholder={rooms.isPending ? 'Carregando salas…' : 'Selecione a sala'}
            data={(rooms.data ?? []).map((room) => ({
              value: room.id,
              label:
                room.heldBy.length > 0
                  ? `${room.name} (${room.code}) — em uso por ${room.heldBy.flatMap((h) => h.examiners).join(' e ')}`
                  : `${room.name} (${room.code})`,
              disabled: room.heldBy.length > 0,
            }))}
            value={examRoomId}
            onChange={(value) => {
              setChosenRoom(value);
              setRoomError(null);
            }}
            disabled={rooms.isPending}
            required
            maw={520}
            error={rooms.isError ? rooms.error.message : roomError}
            data-testid="check-in-room"
          />
        </Card>
      )}
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Examinador 1
          </Title>
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Text fw={600}>{firstName}</Text>
              <Text size="sm" c="dimmed">
                CPF {maskCpf(viewerCpf)}
              </Text>
            </Stack>
            {required &&
              (firstFace ? (
                <Group gap="xs">
                  <Image
                    src={firstFace.faceUrl}
                    alt={`Captura da validação facial de ${firstFace.name}`}
                    w={64}
                    h={64}
                    radius="sm"
                  />
                  <Stack gap={4}>
                    <Text size="sm">Rosto validado às {formatTime(firstFace.currentDate)}</Text>
                    <SimilarityBadge level={firstFace.similarityLevel} />
                  </Stack>
                </Group>
              ) : (
                <Button
                  leftSection={<IconFaceId size={16} aria-hidden />}
                  onClick={() =>
                    face.start(
                      viewerCpf,
                      'Validação facial — Examinador 1',
                      ownPassword ? { askPassword: { label: 'Senha do examinador' } } : {},
                    )
                  }
                >
                  Validar o rosto
                </Button>
              ))}
          </Group>
          {required && !firstFace && (
            <Text size="sm" c="dimmed">
              Nesta unidade a entrada na sala exige a validação facial de cada examinador.
              {ownPassword &&
                ' O examinador 1 não é o usuário conectado: ele digita a própria senha na validação facial.'}
            </Text>
          )}
        </Stack>
      </Card>

      {failed && (
        <Alert color="orange" variant="light" title="Entrada já aberta" data-testid="kept-check-in">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failed.message}</Text>
            <Button size="xs" variant="light" onClick={() => onKeep(failed.id)}>
              Ver a entrada aberta
            </Button>
          </Stack>
        </Alert>
      )}

      <Group>
        <Button
          size="md"
          leftSection={<IconDoorEnter size={18} aria-hidden />}
          onClick={startOpening}
          disabled={!ready}
          loading={checkIn.isPending}
        >
          Abrir a sala
        </Button>
        {!ready && (
          <Text size="sm" c="dimmed">
            Valide o rosto do examinador 1 para abrir a sala.
          </Text>
        )}
      </Group>

      <SecondExaminerModal
        opened={modalOpen}
        onClose={() => setModalOpen(false)}
        first={{
          name: firstName,
          cpf: viewerCpf,
          email: viewerCpf === user.cpf ? user.email : undefined,
        }}
        firstViewerCpf={viewerCpf === user.cpf ? undefined : viewerCpf}
        target={{ schedulingLocal: post }}
        second={second}
        onSecondChange={(next) => {
          appStore.setUserProctoring(next);
          setSecondFace(null);
        }}
        onFormChange={onFormChange}
        face={{
          required,
          verified: secondFace,
          onValidate: () => {
            if (second) face.start(SECOND, 'Validação facial — Examinador 2');
          },
        }}
        actions={[
          { label: 'Cancelar', variant: 'default' },
          { label: 'Abrir a sala', guard: canOpen, onClick: () => checkIn.mutate() },
        ]}
      />
      {face.modal}
    </Stack>
  );
}
