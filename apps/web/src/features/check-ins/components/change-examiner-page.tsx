/**
 * `/change-examiner`: the room passes from an examiner in it to another
 * examiner of the unit, who logs in with e-mail and password (and validates
 * the face where the unit requires it). Recorded as `examiner_transfered` and
 * shown in the check-in record's history.
 */
import { Alert, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange, IconInfoCircle } from '@tabler/icons-react';
import { FACE_VALIDATION_UNIT, type BiometricViewerCheckinResponse } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { useFacialValidation } from '../../../components/face/use-facial-validation';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useAppState, type ProctoringIdentity } from '../../../lib/app-store';
import { api } from '../../../lib/api';
import {
  checkInKeys,
  myOpenCheckInsQuery,
  requestFaceChallenge,
  validateExaminerFace,
} from '../api/check-ins';
import { roomKeys } from '../../../api/unit-rooms';
import { formatTime } from './check-in-parts';
import { SecondExaminerModal, type SecondExaminerForm } from './second-examiner-modal';
import type { CheckInRecord } from '@exame/shared';

export function ChangeExaminerPage() {
  const user = useAppState((state) => state.user);
  // The room comes from the server, whatever post the browser kept (none after a new sign-in).
  const mine = useQuery(myOpenCheckInsQuery());
  return (
    <Stack gap="md" maw={900}>
      <div>
        <Title order={2}>Transferir a sala</Title>
        <Text c="dimmed" size="sm">
          Passe a sala a outro examinador da unidade, que entra com e-mail e senha
          {user?.federativeUnit === FACE_VALIDATION_UNIT ? ' e valida o rosto' : ''}.
        </Text>
      </div>
      <QueryContent
        query={mine}
        loadingLabel="Carregando a sala"
        // Only a room the examiner is in can be handed over (the server checks it too).
        isEmpty={(own) => !own.some((entry) => entry.inRoom)}
        empty={<NoOpenRoom />}
      >
        {(own) => {
          const entry = own.find((candidate) => candidate.inRoom);
          return (
            entry && (
              <Transfer key={entry.record.id} record={entry.record} ownViewerId={entry.viewerId} />
            )
          );
        }}
      </QueryContent>
    </Stack>
  );
}

function NoOpenRoom() {
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
      Você não tem uma entrada aberta. Abra a sala em{' '}
      <Link to="/viewer-checkin">Sala de prova</Link> antes de transferi-la.
    </Alert>
  );
}

function Transfer({
  record,
  ownViewerId,
}: {
  record: CheckInRecord;
  /** The signed-in examiner's entry: the one who hands the room over, unless they choose. */
  ownViewerId: string | null;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const inRoom = record.viewers.filter((viewer) => !viewer.checkOutDate && !viewer.removedAt);
  const [fromId, setFromId] = useState<string | null>(
    inRoom.find((viewer) => viewer.id === ownViewerId)?.id ?? inRoom[0]?.id ?? null,
  );
  const [receiving, setReceiving] = useState<ProctoringIdentity | null>(null);
  const [face, setFace] = useState<BiometricViewerCheckinResponse | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [form, setForm] = useState<SecondExaminerForm>({
    email: '',
    password: '',
    validated: false,
  });
  const from = inRoom.find((viewer) => viewer.id === fromId) ?? null;

  // The receiving examiner is named by the proof of their password check.
  const faceCheck = useFacialValidation({
    requestChallenge: () =>
      requestFaceChallenge({ purpose: 'check-in', proctoringToken: receiving?.proctoringToken }),
    verify: (_who, capture, context) =>
      validateExaminerFace({
        proctoringToken: receiving?.proctoringToken,
        capture,
        uf: context.unit,
        local: record.schedulingLocal,
      }),
    onVerified: (result) => setFace(result),
  });

  const transfer = useMutation({
    mutationFn: () =>
      api.post<CheckInRecord>('api/SchedulingLocalCheckIn/transfer', {
        checkInId: record.id,
        fromViewerId: fromId,
        to: { proctoringToken: receiving?.proctoringToken, verificationId: face?.verificationId },
      }),
    onSuccess: async () => {
      toast.success(`Sala transferida para ${receiving?.user.name ?? 'o examinador'}.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: checkInKeys.all }),
        // Who holds the room changed: the room lists and boards say so.
        queryClient.invalidateQueries({ queryKey: roomKeys.all }),
      ]);
      await navigate('/viewer-checkin');
    },
    onError: (error) => {
      toast.error(error.message);
      setFace(null);
    },
  });

  const ready = () => {
    if (!receiving) {
      showAlert({
        icon: 'warning',
        title: 'Atenção',
        message:
          form.email || form.password
            ? 'Clique em Enviar para confirmar o examinador que recebe a sala.'
            : 'Informe o e-mail e a senha do examinador que recebe a sala.',
      });
      return false;
    }
    if (record.faceValidationRequired && !face) {
      showAlert({
        icon: 'warning',
        title: 'Atenção',
        message: 'Valide o rosto do examinador que recebe a sala.',
      });
      return false;
    }
    return true;
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Text>
          {record.examRoom ? (
            <>
              <strong>{record.examRoom.name}</strong> do posto{' '}
            </>
          ) : (
            'Sala do posto '
          )}
          <strong>{record.schedulingLocalDescription}</strong>, aberta às{' '}
          {formatTime(record.checkInDate)}.
        </Text>
        <Radio.Group label="Examinador que entrega a sala" value={fromId} onChange={setFromId}>
          <Stack gap={6} mt="xs">
            {inRoom.map((viewer) => (
              <Radio
                key={viewer.id}
                value={viewer.id}
                label={`${viewer.name} (CPF ${viewer.cpf})`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Group>
          <Button
            leftSection={<IconArrowsExchange size={16} aria-hidden />}
            onClick={() => setModalOpen(true)}
            disabled={!from}
            loading={transfer.isPending}
          >
            Escolher quem recebe e transferir
          </Button>
        </Group>
      </Stack>
      {from && (
        <SecondExaminerModal
          opened={modalOpen}
          onClose={() => setModalOpen(false)}
          title="Transferir a sala"
          headings={['Entrega a sala', 'Recebe a sala']}
          first={{ name: from.name, cpf: from.cpf }}
          target={{ checkInId: record.id }}
          second={receiving}
          onSecondChange={(next) => {
            setReceiving(next);
            setFace(null);
          }}
          onFormChange={setForm}
          face={{
            required: record.faceValidationRequired,
            verified: face,
            onValidate: () => faceCheck.start('recebe', 'Validação facial — quem recebe a sala'),
          }}
          actions={[
            { label: 'Cancelar', variant: 'default' },
            { label: 'Transferir a sala', guard: ready, onClick: () => transfer.mutate() },
          ]}
        />
      )}
      {faceCheck.modal}
    </Card>
  );
}
