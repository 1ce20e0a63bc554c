/**
 * A failure of a demo call, told plainly: the DEMO unit's rule (403
 * DEMO_UNIT_ONLY) and an unknown candidate (404) have titles of their own,
 * the latter with the way back to step 1; anything else is an 'Erro'.
 */
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';

export function isDemoUnitOnly(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'DEMO_UNIT_ONLY' || error.status === 403);
}

export function isCandidateNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.code === 'DEMO_CANDIDATE_NOT_FOUND' || error.status === 404)
  );
}

export function BackToStepOne({ label = 'Voltar à etapa 1: dados do candidato' }) {
  return (
    <Anchor underline="always" component={Link} to="/demo-register/" size="sm">
      {label}
    </Anchor>
  );
}

export function DemoError({ error }: { error: Error }) {
  if (isDemoUnitOnly(error)) {
    return (
      <Alert color="orange" icon={<IconLock size={18} />} title="Somente na unidade DEMO">
        {error.message}
      </Alert>
    );
  }
  if (isCandidateNotFound(error)) {
    return (
      <Alert color="yellow" icon={<IconAlertCircle size={18} />} title="Candidato não encontrado">
        <Stack gap="xs">
          <Text size="sm">{error.message}</Text>
          <BackToStepOne />
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title="Erro">
      {error.message}
    </Alert>
  );
}
