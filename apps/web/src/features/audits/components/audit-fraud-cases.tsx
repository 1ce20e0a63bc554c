/**
 * On an exam sent to audit with a case of possible proxy test-takers
 * ("Possíveis fraudes"): an alert with a link to each case, for the auditor to
 * open beside the exam. A case never decides the exam by itself.
 */
import { Alert, Anchor, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { AuditDetail } from '@exame/shared';
import { Link } from 'react-router';

export function AuditFraudCases({ cases }: { cases: AuditDetail['fraudCases'] | undefined }) {
  // Until every server sends the field, an answer without it has no cases.
  const list = cases ?? [];
  if (list.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title="Este exame faz parte de um caso de possível fraude"
      data-testid="audit-fraud-cases"
    >
      <Group gap="md">
        {list.map((item) => (
          <Anchor
            key={item.id}
            component={Link}
            to={`/possiveis-fraudes/${encodeURIComponent(item.id)}`}
            size="sm"
          >
            Caso nº {item.number}
          </Anchor>
        ))}
      </Group>
    </Alert>
  );
}
