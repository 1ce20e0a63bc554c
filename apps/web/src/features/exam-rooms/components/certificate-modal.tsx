/**
 * The certificate of a finished exam as the unit sees it (the HTML page of
 * the certificate): the candidate, the unit, post, room and station, the
 * date and result, the examiners of the room and the auditor of the
 * decision, with the verification code and the QR code of the public check;
 * the PDF opens from here. Without a room local it says so (spec 5).
 */
import {
  Alert,
  Anchor,
  Button,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import {
  CERTIFICATE_REVOKE_LABELS,
  EXAM_RESULT_LABELS,
  MISSING_ROOM_LOCAL_MESSAGE,
  type Certificate,
} from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { toast } from '../../../components/toast';
import { certificatePdf } from '../api/exam-rooms';
import { Field } from '../../../components/field';

const format = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

export function CertificateSheet({ certificate }: { certificate: Certificate }) {
  const { content } = certificate;
  return (
    <Stack gap="md" data-testid="certificate-sheet">
      <div>
        <Text size="xs" fw={700} c="blue.9" tt="uppercase">
          {content.unitName}
        </Text>
        <Title order={3}>Certificado do exame teórico</Title>
        <Text size="sm" c="dimmed">
          Agendamento {content.schedulingId} · emitido em {format(certificate.issuedAt)}
        </Text>
      </div>
      {certificate.status === 'revoked' && (
        <Alert color="red" title="Certificado revogado">
          Revogado em {certificate.revokedAt ? format(certificate.revokedAt) : '—'}
          {certificate.revokedReason
            ? `: ${CERTIFICATE_REVOKE_LABELS[certificate.revokedReason]}`
            : ''}
          .
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label="Candidato">{content.candidateName}</Field>
        <Field label="CPF">{content.candidateCpf}</Field>
        <Field label="RENACH">{content.candidateRenach ?? '—'}</Field>
        <Field label="Unidade">
          {content.unitName} ({content.federativeUnit})
        </Field>
        <Field label="Posto">{content.postName ?? '—'}</Field>
        <Field label="Estação">{content.station ?? '—'}</Field>
        <Field label="Data do exame">{format(content.examDate)}</Field>
        <Field label="Resultado">
          {EXAM_RESULT_LABELS[content.result]}
          {content.score === null ? '' : ` (nota ${content.score.toLocaleString('pt-BR')})`}
        </Field>
        <Field label="Examinadores da sala">
          {content.examiners.length > 0 ? content.examiners.join(', ') : 'Nenhum registrado'}
        </Field>
        <Field label="Auditoria">
          {content.auditor ?? 'Resultado liberado sem decisão de auditoria'}
        </Field>
      </SimpleGrid>
      {content.roomLocal ? (
        <Field label="Local da sala">{content.roomLocal}</Field>
      ) : (
        <Alert color="yellow" variant="light" data-testid="missing-room-local">
          {MISSING_ROOM_LOCAL_MESSAGE}
        </Alert>
      )}
      <Group align="center" gap="md" wrap="nowrap">
        <Image
          src={certificate.qrDataUrl}
          w={120}
          h={120}
          alt={`QR code da conferência pública: ${certificate.verifyUrl}`}
        />
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            Código de verificação
          </Text>
          <Text ff="monospace" fw={700} size="lg" data-testid="certificate-code">
            {certificate.code}
          </Text>
          <Anchor href={certificate.verifyUrl} target="_blank" rel="noreferrer" size="sm">
            Conferir na página pública
          </Anchor>
        </Stack>
      </Group>
    </Stack>
  );
}

export function CertificateModal({
  certificate,
  onClose,
}: {
  certificate: Certificate | null;
  onClose: () => void;
}) {
  const pdf = useMutation({
    mutationFn: (id: string) => certificatePdf(id),
    onSuccess: (file) => {
      const url = URL.createObjectURL(file.blob);
      // Not the "noopener" feature: with it window.open gives back null even when the
      // tab opens, and the file would be saved as well. The opener is cut here instead.
      const opened = window.open(url, '_blank');
      if (opened) {
        opened.opener = null;
      } else {
        // Blocked pop-up: the file is saved instead.
        const link = document.createElement('a');
        link.href = url;
        link.download = file.filename ?? 'certificado.pdf';
        link.click();
      }
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Modal opened={certificate !== null} onClose={onClose} title="Certificado" size="lg" centered>
      {certificate && (
        <Stack gap="md">
          <CertificateSheet certificate={certificate} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fechar
            </Button>
            <Button
              leftSection={<IconFileTypePdf size={16} aria-hidden />}
              loading={pdf.isPending}
              onClick={() => pdf.mutate(certificate.id)}
            >
              Abrir PDF
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
