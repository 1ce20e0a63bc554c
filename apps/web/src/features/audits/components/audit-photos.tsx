/**
 * The captures next to the reference photo, with what the face engine read
 * in each (the similarity level to the reference, or why there is none) and
 * the photo audit's mark. The level ranks and explains; it never decides.
 * ADMIN also sees the numbers behind it (the server sends them to ADMIN only).
 */
import { Badge, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { FACE_READING_LABELS, PHOTO_VERDICT_LABELS, type AuditPhoto } from '@exame/shared';
import dayjs from 'dayjs';
import { formatScore, SimilarityBadge } from '../../../components/face/similarity-badge';

export const formatSimilarity = formatScore;

/** What the engine read, as a badge; `threshold` is the unit's, for ADMIN only. */
export function FaceBadge({
  photo,
  reference,
  threshold = null,
}: {
  photo: AuditPhoto;
  reference: boolean;
  threshold?: number | null;
}) {
  const { face } = photo;
  if (face.status === 'pending') {
    return (
      <Badge variant="light" color="gray">
        {FACE_READING_LABELS.pending}
      </Badge>
    );
  }
  if (face.status === 'no_face') {
    return (
      <Badge variant="light" color="gray">
        {/* The audit queue says the same of an exam whose captures have no face. */}
        {FACE_READING_LABELS.no_face}
      </Badge>
    );
  }
  if (reference) {
    return (
      <Badge variant="light" color="blue">
        Rosto lido
      </Badge>
    );
  }
  if (face.level === null) {
    return (
      <Badge variant="light" color="gray">
        Sem comparação (referência sem rosto)
      </Badge>
    );
  }
  return (
    <Stack gap={2}>
      <SimilarityBadge level={face.level} distance={face.distance} threshold={threshold} />
      <Text size="xs">
        {face.match ? 'Provável mesma pessoa' : 'Provável outra pessoa'} (pelo motor facial)
      </Text>
    </Stack>
  );
}

export function MarkBadge({ photo }: { photo: AuditPhoto }) {
  if (!photo.mark) return null;
  return (
    <Badge variant="filled" color={photo.mark.verdict === 'compatible' ? 'teal' : 'red'}>
      {PHOTO_VERDICT_LABELS[photo.mark.verdict]} · {photo.mark.auditorName}
    </Badge>
  );
}

const when = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm:ss');

export function ReferencePhoto({ photo }: { photo: AuditPhoto | null }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="reference-photo">
      <Text size="sm" fw={600} mb={6}>
        Foto de referência
      </Text>
      {photo ? (
        <Stack gap={6}>
          <Image src={photo.url} radius="sm" alt="Foto de referência do candidato" />
          <FaceBadge photo={photo} reference />
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          O sistema de provas não enviou a foto de referência deste candidato: compare as capturas
          entre si.
        </Text>
      )}
    </Paper>
  );
}

export function CaptureGrid({
  captures,
  threshold = null,
}: {
  captures: AuditPhoto[];
  threshold?: number | null;
}) {
  if (captures.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nenhuma captura recebida deste exame.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="captures">
      {captures.map((photo) => (
        <Paper key={photo.id} withBorder radius="md" p="xs" data-testid="capture">
          <Stack gap={6}>
            <Image src={photo.url} radius="sm" alt={`Captura de ${when(photo.capturedAt)}`} />
            <Text size="xs" c="dimmed">
              {when(photo.capturedAt)}
            </Text>
            <Group gap={4}>
              <FaceBadge photo={photo} reference={false} threshold={threshold} />
              <MarkBadge photo={photo} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
