/**
 * `/finished-exam-view` (title 'Emissão de certificados'): the finished exams
 * of the examiner's room and day, and the certificate of each exam whose
 * result was released (approved or reproved): issued once, shown with its
 * code and QR code, and opened as a PDF. The action is offered where the
 * server will accept it (the board's `certificateExamIds`: ADMIN any, an
 * examiner the exams whose room they held while the exam ran).
 */
import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import type { BoardExam, Certificate } from '@exame/shared';
import { DatePickerInput } from '@mantine/dates';
import { dayInZone, EXAM_RESULT_LABELS } from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { boardQuery, issueCertificate, roomsQuery } from '../api/exam-rooms';
import { CertificateModal } from './certificate-modal';
import { RoomExamList } from './room-exam-list';

/** The certificate cell: the action for a released result, or why there is none. */
function CertificateCell({
  exam,
  canIssue,
  onIssued,
}: {
  exam: BoardExam;
  canIssue: boolean;
  onIssued: (certificate: Certificate) => void;
}) {
  const issue = useMutation({
    mutationFn: () => issueCertificate(exam.id),
    onSuccess: onIssued,
    onError: (error) => toast.error(error.message),
  });
  if (exam.result === 'in_analysis') {
    return (
      <Text size="sm" c="dimmed">
        Aguardando auditoria
      </Text>
    );
  }
  if (exam.result !== 'approved' && exam.result !== 'reproved') {
    return (
      <Text size="sm" c="dimmed">
        Sem certificado
      </Text>
    );
  }
  if (!canIssue) {
    return (
      <Text
        size="sm"
        title="Só o administrador ou um examinador que estava na sala durante o exame emite este certificado."
      >
        —
      </Text>
    );
  }
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconCertificate size={14} aria-hidden />}
      loading={issue.isPending}
      onClick={() => issue.mutate()}
      aria-label={`Certificado de ${exam.candidateName}`}
    >
      Certificado
    </Button>
  );
}

export function FinishedExamsPage() {
  const role = useAppState((state) => state.user?.roleDescription);
  const examiner = role === 'VIEWER' || role === 'ROOM_INSPECTOR';
  // Examiners see the rooms they hold; ADMIN and AUDITOR any room of the unit.
  const rooms = useQuery(roomsQuery(null, false, examiner));
  // The board's "Exames finalizados" names its room (`?room=`).
  const [params, setParams] = useSearchParams();
  // Else the room of the board opened last (`stateExamMenu`).
  const lastBoard = useAppState((state) => state.stateExamMenu?.examRoomId ?? null);
  const named = params.get('room') ?? lastBoard;
  const chosen = rooms.data?.some((room) => room.id === named) ? named : null;
  const [day, setDay] = useState<string | null>(null);
  const roomId = chosen ?? rooms.data?.[0]?.id ?? null;
  const today = dayInZone(new Date());
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Exames finalizados</Title>
        <Text c="dimmed" size="sm">
          Os exames finalizados da sala no dia, para a emissão dos certificados.
        </Text>
      </div>
      <Group align="flex-end">
        <Select
          label="Sala"
          placeholder={rooms.isPending ? 'Carregando salas…' : 'Escolha a sala'}
          data={(rooms.data ?? []).map((room) => ({
            value: room.id,
            label: `${room.name} — ${room.schedulingLocalDescription}`,
          }))}
          value={roomId}
          onChange={(value) => setParams(value ? { room: value } : {}, { replace: true })}
          error={rooms.isError ? rooms.error.message : undefined}
          w={{ base: '100%', xs: 360 }}
        />
        <DatePickerInput
          label="Dia"
          value={day ?? today}
          onChange={(value) => setDay(value && value !== today ? value : null)}
          valueFormat="DD/MM/YYYY"
          locale="pt-br"
          maw={180}
        />
      </Group>
      {rooms.isError ? (
        <Alert color="red" title="Erro">
          {rooms.error.message}
        </Alert>
      ) : rooms.data && rooms.data.length === 0 ? (
        <Text c="dimmed">
          {examiner
            ? 'Você não tem uma sala aberta. Registre a entrada em Sala de prova.'
            : 'Nenhuma sala cadastrada na unidade.'}
        </Text>
      ) : (
        roomId && <FinishedExams roomId={roomId} day={day} />
      )}
    </Stack>
  );
}

function FinishedExams({ roomId, day }: { roomId: string; day: string | null }) {
  const board = useQuery(boardQuery(roomId, day));
  const role = useAppState((state) => state.user?.roleDescription);
  const canIssue = role === 'ADMIN' || role === 'VIEWER' || role === 'ROOM_INSPECTOR';
  const [certificate, setCertificate] = useState<Certificate | null>(null);
  return (
    <>
      <CertificateModal certificate={certificate} onClose={() => setCertificate(null)} />
      <QueryContent
        query={board}
        loadingLabel="Carregando exames finalizados"
        isEmpty={(data) => data.exams.every((exam) => exam.status !== 'done')}
        empty="Nenhum exame finalizado nesta sala no dia."
      >
        {(data) => (
          <RoomExamList
            exams={data.exams.filter((exam) => exam.status === 'done')}
            testId="finished-exams"
            label="Exames finalizados da sala no dia"
            extra={[
              {
                header: 'Resultado',
                cell: (exam) => (
                  <Text size="sm">{exam.result ? EXAM_RESULT_LABELS[exam.result] : '—'}</Text>
                ),
              },
              {
                header: 'Certificado',
                cell: (exam) => (
                  <CertificateCell
                    exam={exam}
                    canIssue={canIssue && data.certificateExamIds.includes(exam.id)}
                    onIssued={setCertificate}
                  />
                ),
              },
            ]}
          />
        )}
      </QueryContent>
    </>
  );
}
