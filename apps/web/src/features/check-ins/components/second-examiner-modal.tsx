/**
 * The second-examiner modal (spec 2, 68vw): Examinador 1 (masked CPF, name)
 * and Examinador 2 (Email and Senha, Limpar and Enviar). Enviar is enabled
 * when both fields are filled or examiner 2 is already validated (spec 5);
 * Limpar returns to not validated (spec 4). The footer's actions close the
 * modal and run 300 ms later (spec 9). Where the unit requires it, examiner 2
 * also validates by face before the room opens.
 */
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Image,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconFaceId, IconSend } from '@tabler/icons-react';
import {
  canSendSecondExaminer,
  CHECK_IN_TEXTS,
  maskCpf,
  MODAL_ACTION_DELAY_MS,
  WIDE_MODAL_WIDTH,
  type BiometricViewerCheckinResponse,
} from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { SimilarityBadge } from '../../../components/face/similarity-badge';
import { toast } from '../../../components/toast';
import type { ProctoringIdentity } from '../../../lib/app-store';
import { textField } from '../../../lib/forms';
import { confirmSecondExaminer } from '../api/check-ins';

export type ExaminerSummary = { name: string; cpf: string; email?: string };
export type SecondExaminerForm = { email: string; password: string; validated: boolean };

export type SecondExaminerAction = {
  label: string;
  color?: string;
  variant?: 'filled' | 'light' | 'outline' | 'default' | 'subtle';
  /** Checked first: false keeps the modal open (the guard tells why). */
  guard?: () => boolean;
  /** Runs MODAL_ACTION_DELAY_MS after the modal closed. */
  onClick?: () => void;
};

export type SecondExaminerModalProps = {
  opened: boolean;
  onClose: () => void;
  first: ExaminerSummary;
  /** Examiner 2 once validated (kept by the caller as `userProctoring`). */
  second: ProctoringIdentity | null;
  onSecondChange: (second: ProctoringIdentity | null) => void;
  /** The form's state, for the caller's opening rule (spec 4). */
  onFormChange?: (form: SecondExaminerForm) => void;
  /** Examiner 2's face check where the unit requires it. */
  face?: {
    required: boolean;
    verified: BiometricViewerCheckinResponse | null;
    onValidate: () => void;
  };
  /** Examiner 1's CPF when it is not the signed-in user's (`cpfViewer`). */
  firstViewerCpf?: string;
  /**
   * What examiner 2's confirmation is for (it is used once, there only): the
   * post where the room opens, or the open record they join or receive.
   */
  target: { schedulingLocal: string } | { checkInId: string };
  /** The headings of the two sides (spec 2: 'Examinador 1' and 'Examinador 2'). */
  headings?: readonly [string, string];
  /** Footer actions; with none, a single Ok closes the modal. */
  actions?: SecondExaminerAction[];
  title?: ReactNode;
};

export function SecondExaminerModal(props: SecondExaminerModalProps) {
  const { opened, onClose, first, second, onSecondChange, onFormChange, face } = props;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const validated = second !== null;

  useEffect(() => {
    onFormChange?.({ email, password, validated });
  }, [email, password, validated, onFormChange]);

  const send = useMutation({
    mutationFn: () =>
      confirmSecondExaminer({
        email: email.trim(),
        password,
        firstViewerCpf: props.firstViewerCpf,
        ...props.target,
      }),
    onSuccess: (answer) => {
      setError(null);
      setPassword('');
      onSecondChange({
        user: answer.user,
        proctoringToken: answer.proctoringToken,
        expiresAt: answer.expiresAt,
      });
      toast.success(CHECK_IN_TEXTS.associated);
    },
    onError: (failure) => setError(failure.message),
  });

  const submit = () => {
    if (validated || send.isPending) return;
    if (first.email && email.trim().toLowerCase() === first.email.toLowerCase()) {
      setError(CHECK_IN_TEXTS.sameExaminer);
      return;
    }
    send.mutate();
  };

  const clear = () => {
    setEmail('');
    setPassword('');
    setError(null);
    onSecondChange(null);
  };

  /** Spec 2 and 9: the modal closes, then its action runs 300 ms later. */
  const run = (action?: SecondExaminerAction) => {
    onClose();
    window.setTimeout(() => action?.onClick?.(), MODAL_ACTION_DELAY_MS);
  };
  const actions = props.actions ?? [];

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size={WIDE_MODAL_WIDTH}
      centered
      title={props.title ?? 'Examinadores da sala'}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap="xs" component="section" aria-labelledby="examinador-1">
            <Title order={3} size="h5" id="examinador-1">
              {props.headings?.[0] ?? 'Examinador 1'}
            </Title>
            <Text fw={600}>{first.name}</Text>
            <Text size="sm" c="dimmed">
              CPF {maskCpf(first.cpf)}
            </Text>
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="examinador-2">
            <Title order={3} size="h5" id="examinador-2">
              {props.headings?.[1] ?? 'Examinador 2'}
            </Title>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <Stack gap="xs">
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="off"
                  disabled={validated}
                  maxLength={254}
                  {...textField(email, setEmail)}
                />
                <PasswordInput
                  label="Senha"
                  autoComplete="off"
                  disabled={validated}
                  maxLength={4096}
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                />
                {error && (
                  <Alert color="red" role="alert" data-testid="second-examiner-error">
                    {error}
                  </Alert>
                )}
                <Group justify="flex-end" gap="xs">
                  <Button variant="default" onClick={clear}>
                    Limpar
                  </Button>
                  <Button
                    type="submit"
                    leftSection={<IconSend size={16} aria-hidden />}
                    disabled={!canSendSecondExaminer({ email, password, validated })}
                    loading={send.isPending}
                  >
                    Enviar
                  </Button>
                </Group>
              </Stack>
            </form>
            {second && (
              <Stack gap={4} data-testid="second-examiner">
                <Group gap="xs">
                  <Badge color="teal" leftSection={<IconCircleCheck size={14} aria-hidden />}>
                    Validado
                  </Badge>
                  <Text fw={600}>{second.user.name}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  CPF {maskCpf(second.user.cpf)}
                </Text>
                {face?.required &&
                  (face.verified ? (
                    <Group gap="xs">
                      <Image
                        src={face.verified.faceUrl}
                        alt={`Captura da validação facial de ${second.user.name}`}
                        w={56}
                        h={56}
                        radius="sm"
                      />
                      <Stack gap={4}>
                        <Text size="sm">Rosto validado</Text>
                        <SimilarityBadge level={face.verified.similarityLevel} />
                      </Stack>
                    </Group>
                  ) : (
                    <Button
                      variant="light"
                      leftSection={<IconFaceId size={16} aria-hidden />}
                      onClick={face.onValidate}
                    >
                      Validar o rosto do examinador 2
                    </Button>
                  ))}
              </Stack>
            )}
          </Stack>
        </SimpleGrid>
        <Divider />
        <Group justify="flex-end">
          {actions.length === 0 ? (
            <Button onClick={() => run()}>Ok</Button>
          ) : (
            actions.map((action) => (
              <Button
                key={action.label}
                color={action.color}
                variant={action.variant ?? 'filled'}
                onClick={() => {
                  if (action.guard && !action.guard()) return;
                  run(action);
                }}
              >
                {action.label}
              </Button>
            ))
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
