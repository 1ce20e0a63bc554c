/**
 * The auditor alert (spec 2): shown when the exam an auditor opens is held
 * by another auditor. Title, the auditor message with the holder's block
 * (masked CPF, today's date, name) and the auditors who worked on the exam
 * in the same layout; a single Ok closes it. It rides on the global alert
 * modal.
 */
import { Paper, Stack, Text } from '@mantine/core';
import type { Auditor, AuditorAlert } from '@exame/shared';
import dayjs from 'dayjs';
import { useCallback } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';

function AuditorBlock({ auditor, today }: { auditor: Auditor; today: string }) {
  return (
    <Paper withBorder radius="sm" p="xs" w="100%" data-testid="auditor-block">
      <Text size="sm" fw={600}>
        {auditor.auditorName}
      </Text>
      <Text size="xs" c="dimmed">
        CPF {auditor.auditorCpf} · {today}
      </Text>
      <Text size="xs" c="dimmed">
        Desde {dayjs(auditor.date).format('DD/MM/YYYY HH:mm')}
      </Text>
    </Paper>
  );
}

export function AuditorAlertContent({ alert }: { alert: AuditorAlert }) {
  const today = dayjs().format('DD/MM/YYYY');
  return (
    <Stack gap="xs" w="100%" data-testid="auditor-alert">
      <Text size="sm">{alert.messageAuditor}</Text>
      <AuditorBlock auditor={alert.auditor} today={today} />
      {alert.audit.length > 0 && (
        <>
          <Text size="sm" mt="xs">
            {alert.message}
          </Text>
          {alert.audit.map((auditor) => (
            <AuditorBlock
              key={`${auditor.auditorCpf}-${auditor.date}`}
              auditor={auditor}
              today={today}
            />
          ))}
        </>
      )}
    </Stack>
  );
}

/** Shows the auditor alert in the global alert modal. */
export function useAuditorAlert(): (alert: AuditorAlert, onClose?: () => void) => void {
  const { showAlert } = useAlert();
  return useCallback(
    (alert, onClose) =>
      showAlert({
        icon: 'warning',
        title: alert.title,
        content: <AuditorAlertContent alert={alert} />,
        actions: [{ label: 'Ok', onClick: onClose }],
      }),
    [showAlert],
  );
}
