/**
 * The global alert modal (spec 2): icon, title (default 'Opss...'), sanitised
 * HTML message, optional detail line, optional custom content and action
 * buttons (default one 'Ok'), 340px wide. Actions flagged with
 * `requiresDisqualificationReason` stay disabled until a disqualification
 * reason and a free-text note are both filled.
 */
import { Button, Group, Modal, Select, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconInfoCircle,
  IconMoodSad,
} from '@tabler/icons-react';
import DOMPurify from 'dompurify';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_ALERT_ACTION, DEFAULT_ALERT_TITLE, DEFAULT_MODAL_WIDTH } from '@exame/shared';
import { appStore, useAppState } from '../../lib/app-store';

export type AlertIcon = 'error' | 'success' | 'warning' | 'info';

export type DisqualificationInput = { reason: string; note: string };

export type AlertAction = {
  label: string;
  color?: string;
  variant?: 'filled' | 'light' | 'outline' | 'default' | 'subtle';
  /** Disabled until a disqualification reason and a note are filled. */
  requiresDisqualificationReason?: boolean;
  /** Runs after the modal closes; receives the disqualification input when the alert has one. */
  onClick?: (input: DisqualificationInput) => void | Promise<void>;
};

export type AlertOptions = {
  icon?: AlertIcon | ReactNode;
  title?: string;
  /** HTML; sanitised before it is shown. */
  message?: string;
  detail?: string;
  content?: ReactNode;
  actions?: AlertAction[];
  width?: string;
  /** Options of the disqualification reason select, shown when any action requires a reason. */
  disqualificationReasons?: Array<{ value: string; label: string }>;
};

type AlertContextValue = {
  showAlert: (options: AlertOptions) => void;
  closeAlert: () => void;
};

const AlertContext = createContext<AlertContextValue | null>(null);

const ICONS: Record<AlertIcon, { color: string; icon: ReactNode }> = {
  error: { color: 'red', icon: <IconMoodSad size={28} /> },
  success: { color: 'teal', icon: <IconCircleCheck size={28} /> },
  warning: { color: 'yellow', icon: <IconAlertTriangle size={28} /> },
  info: { color: 'blue', icon: <IconInfoCircle size={28} /> },
};

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export function isActionEnabled(action: AlertAction, input: DisqualificationInput): boolean {
  if (!action.requiresDisqualificationReason) return true;
  return input.reason.trim() !== '' && input.note.trim() !== '';
}

function renderIcon(icon: AlertOptions['icon']): ReactNode {
  if (icon === undefined || icon === null) return null;
  if (typeof icon === 'string' && icon in ICONS) {
    const entry = ICONS[icon as AlertIcon];
    return (
      <ThemeIcon size={52} radius="xl" variant="light" color={entry.color} aria-hidden>
        {entry.icon}
      </ThemeIcon>
    );
  }
  return icon as ReactNode;
}

export function AlertModalProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<AlertOptions | null>(null);
  // The reason and the note live in the client state (spec 3 `desclassificationSelectValue`,
  // `vModelTextArea`); each new alert starts them empty.
  const reason = useAppState((state) => state.desclassificationSelectValue);
  const note = useAppState((state) => state.vModelTextArea);
  const input: DisqualificationInput = { reason, note };

  const closeAlert = useCallback(() => setOptions(null), []);
  const showAlert = useCallback((next: AlertOptions) => {
    appStore.setDesclassificationSelectValue('');
    appStore.setVModelTextArea('');
    setOptions(next);
  }, []);
  const value = useMemo(() => ({ showAlert, closeAlert }), [showAlert, closeAlert]);

  const actions: AlertAction[] =
    options?.actions && options.actions.length > 0
      ? options.actions
      : [{ label: DEFAULT_ALERT_ACTION }];
  const needsReason = actions.some((action) => action.requiresDisqualificationReason);

  const run = (action: AlertAction) => {
    const submitted = input;
    closeAlert();
    void action.onClick?.(submitted);
  };

  return (
    <AlertContext.Provider value={value}>
      {children}
      <Modal
        opened={options !== null}
        onClose={closeAlert}
        size={options?.width ?? DEFAULT_MODAL_WIDTH}
        centered
        withCloseButton={false}
        closeOnClickOutside={false}
        // Mantine names the title `<id>-title`: `#alert-modal-title`, as before.
        id="alert-modal"
        zIndex={400}
      >
        {options && (
          <Stack align="center" gap="sm" data-testid="alert-modal">
            {renderIcon(options.icon)}
            {/*
             * Modal.Title, not plain text: Mantine then names the dialog by it
             * (aria-labelledby), as screen readers announce it when it opens.
             */}
            <Modal.Title fw={700} fz="lg" ta="center" data-testid="alert-modal-title">
              {options.title ?? DEFAULT_ALERT_TITLE}
            </Modal.Title>
            {options.message && (
              <Text
                component="div"
                ta="center"
                size="sm"
                data-testid="alert-modal-message"
                dangerouslySetInnerHTML={{ __html: sanitizeHtml(options.message) }}
              />
            )}
            {options.detail && (
              <Text ta="center" size="xs" c="dimmed">
                {options.detail}
              </Text>
            )}
            {options.content}
            {needsReason && (
              <Stack w="100%" gap="xs">
                <Select
                  label="Motivo da desclassificação"
                  placeholder="Selecione o motivo"
                  data={options.disqualificationReasons ?? []}
                  value={input.reason || null}
                  onChange={(value) => appStore.setDesclassificationSelectValue(value ?? '')}
                  comboboxProps={{ withinPortal: false }}
                  required
                />
                <Textarea
                  label="Observação"
                  placeholder="Descreva o motivo"
                  autosize
                  minRows={2}
                  value={input.note}
                  onChange={(event) => appStore.setVModelTextArea(event.currentTarget.value)}
                  required
                />
              </Stack>
            )}
            <Group justify="center" gap="sm" mt="xs" w="100%">
              {actions.map((action, index) => (
                <Button
                  key={`${action.label}-${index}`}
                  color={action.color}
                  variant={action.variant ?? (index === actions.length - 1 ? 'filled' : 'default')}
                  disabled={!isActionEnabled(action, input)}
                  onClick={() => run(action)}
                  data-autofocus={index === actions.length - 1 ? true : undefined}
                >
                  {action.label}
                </Button>
              ))}
            </Group>
          </Stack>
        )}
      </Modal>
    </AlertContext.Provider>
  );
}

export function useAlert(): AlertContextValue {
  const context = useContext(AlertContext);
  if (!context) throw new Error('useAlert precisa de AlertModalProvider');
  return context;
}
