/**
 * The exams of a post today whose room no room of the post names, on the
 * room-management screen: listed apart, never lost, until a room with the
 * code they use is created.
 */
import { Alert, Card, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryContent } from '../../../components/query-content';
import { unplacedQuery } from '../api/exam-rooms';
import { RoomExamList } from './room-exam-list';

export function ExamsWithoutRoom({ post }: { post: string }) {
  const exams = useQuery(unplacedQuery(post, null));
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Exames de hoje sem sala cadastrada
        </Title>
        <QueryContent
          query={exams}
          loadingLabel="Carregando exames sem sala"
          isEmpty={(list) => list.length === 0}
          empty="Todos os exames de hoje deste posto estão numa sala cadastrada."
          compact
        >
          {(list) => (
            <>
              <Alert color="orange" variant="light">
                Estes exames nomeiam uma sala que não existe no posto. Crie a sala com o código que
                eles usam para vê-los no quadro.
              </Alert>
              <RoomExamList
                exams={list}
                testId="exams-without-room"
                label="Exames de hoje sem sala cadastrada"
              />
            </>
          )}
        </QueryContent>
      </Stack>
    </Card>
  );
}
