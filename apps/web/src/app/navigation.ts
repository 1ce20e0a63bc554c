/** The side menu: each entry names the roles that see it. */
import { FRAUD_CASE_ROLES, ROLES, type Role } from '@exame/shared';

export type MenuEntry = { label: string; to: string; roles: readonly Role[]; description: string };

export const MENU: readonly MenuEntry[] = [
  {
    label: 'Início',
    to: '/home',
    roles: ['ADMIN', 'auditor', 'VIEWER', 'ROOM_INSPECTOR'],
    description: 'Página inicial',
  },
  {
    label: 'Sala de prova',
    to: '/viewer-checkin',
    roles: ['VIEWER', 'ROOM_INSPECTOR'],
    description: 'Registrar a entrada e a saída dos examinadores na sala do posto',
  },
  {
    label: 'Transferir a sala',
    to: '/change-examiner',
    roles: ['VIEWER', 'ROOM_INSPECTOR'],
    description: 'Passar a sala a outro examinador da unidade',
  },
  {
    label: 'Emissão de certificados',
    to: '/finished-exam-view',
    roles: ['VIEWER', 'ROOM_INSPECTOR', 'ADMIN'],
    description: 'Exames finalizados da sala no dia',
  },
  {
    label: 'Salas de prova',
    to: '/room-management',
    roles: ['ADMIN', 'ROOM_INSPECTOR'],
    description: 'Salas e estações dos postos, e o quadro de cada sala',
  },
  {
    label: 'Entradas nas salas',
    to: '/check-ins',
    roles: ['ADMIN', 'auditor'],
    description: 'Quem esteve em cada sala, quando, com as capturas da validação facial',
  },
  {
    label: 'Relatório dos postos',
    to: '/exam-report/all',
    roles: ['ADMIN'],
    description: 'Contadores por posto, exames de cada contador e exportação',
  },
  {
    label: 'Auditoria',
    to: '/auditoria',
    roles: ['ADMIN', 'auditor'],
    description: 'Fila de exames aguardando auditoria, decisões e auditoria de fotos',
  },
  {
    label: 'Minha auditoria',
    to: '/minha-auditoria',
    roles: ['auditor'],
    description: 'Os exames com você e as decisões que tomou',
  },
  {
    label: 'Minha auditoria de fotos',
    to: '/minha-auditoria-de-fotos',
    roles: ['auditor'],
    description: 'Os exames cujas capturas você marcou',
  },
  {
    label: 'Possíveis fraudes',
    to: '/possiveis-fraudes',
    roles: FRAUD_CASE_ROLES,
    description: 'O mesmo rosto em exames de CPFs diferentes: casos para o auditor decidir',
  },
  {
    label: 'Exames',
    to: '/exames',
    roles: ['ADMIN', 'auditor'],
    description: 'Consultar exames, ocorrências e fotos',
  },
  {
    label: 'Postos de atendimento',
    to: '/scheduling-locals',
    roles: ['ADMIN'],
    description: 'Cadastrar e desativar postos',
  },
  {
    label: 'Justificativas',
    to: '/justificativas',
    roles: ['ADMIN'],
    description: 'Motivos de desclassificação dos exames',
  },
  {
    label: 'Integração',
    to: '/integracao',
    roles: ['ADMIN'],
    description: 'Chaves do sistema de provas',
  },
  {
    label: 'Provedores de identidade',
    to: '/provedores-de-identidade',
    roles: ['ADMIN'],
    description: 'Entrar com o gov.br ou o diretório do estado (OpenID Connect)',
  },
  {
    label: 'Atividades',
    to: '/atividades',
    roles: ['ADMIN'],
    description: 'Quem fez o quê: busca, exportação e integridade do registro',
  },
  {
    label: 'Usuários',
    to: '/list-users',
    roles: ['ADMIN'],
    description: 'Consultar, habilitar e desabilitar usuários',
  },
  {
    label: 'Novo usuário',
    to: '/create-users',
    roles: ['ADMIN'],
    description: 'Cadastrar um usuário da unidade',
  },
  {
    label: 'Cadastro de demonstração',
    to: '/demo-register/',
    roles: ['ADMIN'],
    description: 'Cadastrar um candidato de demonstração ou um usuário de demonstração',
  },
  {
    label: 'Demonstração: verificação facial',
    to: '/demo-finished/',
    roles: ['ADMIN'],
    description: 'Candidatos de demonstração, verificação do rosto e limpeza dos dados',
  },
  {
    // The person's own account, last: not a task of the unit.
    label: 'Segurança da conta',
    to: '/seguranca',
    roles: ROLES,
    description: 'Verificação em duas etapas, chaves de acesso e códigos de recuperação',
  },
];

export function menuFor(role: Role | undefined): MenuEntry[] {
  return role ? MENU.filter((entry) => entry.roles.includes(role)) : [];
}
