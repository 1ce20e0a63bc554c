/**
 * `/demo-register/` (admin-guarded): two tabs. "Candidato" (the default) is
 * step 1 of the demonstration of the facial verification; "Usuário de
 * demonstração" creates a demonstration user of the unit (spec 7,
 * `POST api/User`). `?aba=usuario` opens the second tab.
 */
import { Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconUser, IconUserScan } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { BackHome } from '../../components/back-home';
import { DemoCandidateStep } from '../../features/demo/components/demo-candidate-step';
import { DemoUserPanel } from '../../features/users/components/demo-register-page';

const USER_TAB = 'usuario';

export function DemoRegisterPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('aba') === USER_TAB ? USER_TAB : 'candidato';
  return (
    <Stack gap="md" p="md" maw={760} mx="auto">
      <BackHome />
      <div>
        <Title order={2}>Cadastro de demonstração</Title>
        <Text c="dimmed" size="sm">
          Apresente a verificação facial com um candidato de demonstração, ou crie um usuário de
          demonstração da unidade.
        </Text>
      </div>
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(value === USER_TAB ? { aba: USER_TAB } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List aria-label="Tipo de cadastro de demonstração">
          <Tabs.Tab value="candidato" leftSection={<IconUserScan size={16} aria-hidden />}>
            Candidato
          </Tabs.Tab>
          <Tabs.Tab value={USER_TAB} leftSection={<IconUser size={16} aria-hidden />}>
            Usuário de demonstração
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="candidato" pt="md">
          <Paper withBorder p="lg" radius="md">
            <DemoCandidateStep />
          </Paper>
        </Tabs.Panel>
        <Tabs.Panel value={USER_TAB} pt="md">
          <DemoUserPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
