/**
 * "Configurações da unidade" on the ADMIN's check-ins page: whether an
 * examiner who is not signed in may enter a room by face alone, without
 * typing their own password (off by default). Turning it on asks
 * for a confirmation that says the risk; turning it off does not. The unit
 * is always the ADMIN's own (the server takes it from the session).
 */
import { Alert, Card, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ADMITTED_BY_LABELS } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { toast } from '../../../components/toast';
import { checkInKeys, saveUnitSettings, unitSettingsQuery } from '../api/check-ins';
import { LoadingSpinner } from '../../../components/loading-spinner';

const RISK =
  'Com esta opção ligada, quem tiver uma foto ou um vídeo do rosto de um examinador pode registrá-lo na sala sem a senha dele: o rosto sozinho não prova quem está diante da câmera.';

export function UnitSettings() {
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const settings = useQuery(unitSettingsQuery());
  const save = useMutation({
    mutationFn: (faceAloneAllowed: boolean) => saveUnitSettings({ faceAloneAllowed }),
    onSuccess: async (next) => {
      queryClient.setQueryData(checkInKeys.unitSettings, next);
      toast.success(
        next.faceAloneAllowed
          ? 'A entrada só com o rosto está permitida nesta unidade.'
          : 'A entrada na sala volta a exigir a senha do examinador.',
        'Configurações da unidade',
      );
      // The check-in screens read the unit's rules from getConfig.
      await queryClient.invalidateQueries({ queryKey: checkInKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });

  const change = (allowed: boolean) => {
    if (!allowed) {
      save.mutate(false);
      return;
    }
    showAlert({
      icon: 'warning',
      title: 'Permitir entrada só com o rosto?',
      message: `${RISK} Cada entrada feita assim fica marcada no registro como "${ADMITTED_BY_LABELS.face_only}".`,
      actions: [
        { label: 'Cancelar', variant: 'default' },
        { label: 'Permitir', color: 'red', onClick: () => save.mutate(true) },
      ],
    });
  };

  const allowed = settings.data?.faceAloneAllowed ?? false;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="unit-settings">
      <Stack gap="sm">
        <Title order={3} size="h4" id="unit-settings">
          Configurações da unidade
        </Title>
        {settings.isPending ? (
          <LoadingSpinner size="sm" label="Carregando as configurações da unidade" />
        ) : settings.isError ? (
          <Alert color="red" title="Erro">
            {settings.error.message}
          </Alert>
        ) : (
          <>
            <Switch
              label="Permitir entrada só com o rosto (sem senha)"
              description="Desligada, o examinador que não é o usuário conectado digita a própria senha na validação facial."
              checked={allowed}
              onChange={(event) => change(event.currentTarget.checked)}
              disabled={save.isPending}
            />
            <Text size="sm" c="dimmed">
              {RISK}
            </Text>
            {allowed && (
              <Alert
                color="orange"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                data-testid="face-alone-on"
              >
                A entrada só com o rosto está permitida. As entradas feitas assim aparecem como
                &ldquo;{ADMITTED_BY_LABELS.face_only}&rdquo; no registro e no histórico.
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
