/** Each criterion of the password policy, updated as the person types. */
import { List, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { PasswordCriterion } from '@exame/shared';

export function PasswordChecklist({ criteria }: { criteria: PasswordCriterion[] }) {
  return (
    <List spacing={4} size="sm" aria-label="Requisitos da senha" data-testid="password-checklist">
      {criteria.map((criterion) => (
        <List.Item
          key={criterion.id}
          data-met={criterion.met}
          c={criterion.met ? 'teal.8' : 'red.8'}
          icon={
            <ThemeIcon
              color={criterion.met ? 'teal' : 'red'}
              size={18}
              radius="xl"
              variant="light"
              aria-hidden
            >
              {criterion.met ? <IconCheck size={12} /> : <IconX size={12} />}
            </ThemeIcon>
          }
        >
          <span className="visually-hidden">{criterion.met ? 'Atendido: ' : 'Pendente: '}</span>
          {criterion.label}
        </List.Item>
      ))}
    </List>
  );
}
