/**
 * Where the demonstration flow stands (`/demo-register/`, `/demo-register2/`,
 * `/demo-biometry/:cpf`, `/demo-finished/`): the four steps in order, the
 * current one marked for assistive technology with `aria-current="step"`.
 */
import { Button, Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export const DEMO_STEPS = ['Dados', 'Contato e consentimento', 'Biometria', 'Verificação'] as const;

export type DemoStep = 1 | 2 | 3 | 4;

export function DemoSteps({ active }: { active: DemoStep }) {
  return (
    <nav aria-label="Etapas da demonstração">
      <Group
        component="ol"
        gap="md"
        wrap="wrap"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        data-testid="demo-steps"
      >
        {DEMO_STEPS.map((label, index) => {
          const step = index + 1;
          const done = step < active;
          const current = step === active;
          return (
            <Group
              component="li"
              key={label}
              gap={6}
              wrap="nowrap"
              aria-current={current ? 'step' : undefined}
            >
              <ThemeIcon
                size="sm"
                radius="xl"
                variant={current || done ? 'filled' : 'light'}
                color={done ? 'teal' : current ? undefined : 'gray'}
                aria-hidden
              >
                {done ? (
                  <IconCheck size={12} />
                ) : (
                  <Text span size="xs" fw={700}>
                    {step}
                  </Text>
                )}
              </ThemeIcon>
              <Text size="sm" fw={current ? 700 : 400} c={current || done ? undefined : 'dimmed'}>
                <VisuallyHidden>
                  {`Etapa ${step}${done ? ' (concluída)' : current ? ' (atual)' : ''}: `}
                </VisuallyHidden>
                {label}
              </Text>
            </Group>
          );
        })}
      </Group>
    </nav>
  );
}

/** A step form's submit, to the next step: busy while the step's call runs. */
export function DemoNextButton({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Button type="submit" loading={loading} rightSection={<IconArrowRight size={18} aria-hidden />}>
      {children}
    </Button>
  );
}
