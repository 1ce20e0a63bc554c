/**
 * Accessibility of every screen (eMAG, WCAG 2.1 AA) in Chromium with
 * axe-core: no serious or critical violation, and a document title naming the
 * screen and the product, on every public and signed-in screen and on the
 * states people meet there (validation errors, dialogs, open lists, the
 * calendar, toasts, a narrow window), for the profiles whose screens differ,
 * with the default, DF and CE themes. The counts per screen are written to
 * e2e/artifacts/a11y-report.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addDays, dayInZone } from '@exame/shared';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { axeViolations, describeViolation, isSerious } from '../support/axe';
import { artifactsDir, screenshot, useBrowser } from '../support/browser';
import { useServer } from '../support/server';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const AUDITOR_2 = { email: 'auditor2@demo.exame.local', password: ADMIN.password };
const VIEWER = { email: 'examinador@demo.exame.local', password: ADMIN.password };
const ROOM_INSPECTOR = { email: 'fiscal@demo.exame.local', password: ADMIN.password };
const DF_ADMIN = { email: 'admin.df@demo.exame.local', password: ADMIN.password };
const PRODUCT = 'Exame Teórico';

/** The report's period: the last seven São Paulo days (finished exams at any hour). */
function lastWeek(): string {
  const today = dayInZone(new Date());
  return `startDate=${addDays(today, -6)}&endDate=${today}`;
}

type Who = { email: string; password: string };
type ScreenReport = {
  screen: string;
  title: string;
  serious: number;
  violations: Array<{ id: string; impact: string | null; nodes: number }>;
};

/** `usuários (tema DF)` -> `usuarios-tema-df`. */
function fileName(screen: string): string {
  return screen
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

describe('accessibility of every screen in Chromium', () => {
  const server = useServer({
    ...ADMIN_ENV,
    // A decision waits for a second auditor: its confirmation dialogs can be opened.
    AUDIT_TWO_PERSON_RULE: 'true',
    AUDIT_RECHECK_PERCENT: '0',
  });
  const browser = useBrowser();
  const found: string[] = [];
  const reports: ScreenReport[] = [];
  const wrongTitles: string[] = [];

  afterAll(() => {
    fs.mkdirSync(artifactsDir, { recursive: true });
    fs.writeFileSync(
      path.join(artifactsDir, 'a11y-report.json'),
      `${JSON.stringify(reports, null, 2)}\n`,
    );
  });

  /**
   * Waits for the screen, runs axe on it, keeps its serious and critical
   * violations and checks its document title (`<title> · Exame Teórico`).
   */
  async function check(page: Page, screen: string, title: string, ready: () => Promise<unknown>) {
    await ready();
    const violations = await axeViolations(page);
    const serious = violations.filter(isSerious);
    found.push(...serious.map((violation) => describeViolation(screen, violation)));
    const documentTitle = await page.title();
    if (documentTitle !== `${title} · ${PRODUCT}`) {
      wrongTitles.push(`${screen}: "${documentTitle}" (esperado "${title} · ${PRODUCT}")`);
    }
    reports.push({
      screen,
      title: documentTitle,
      serious: serious.reduce((sum, violation) => sum + violation.nodes.length, 0),
      violations: violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.length,
      })),
    });
    await screenshot(page, `a11y-${fileName(screen)}`);
  }

  async function newPage(viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ viewport });
    return { context, page: await context.newPage() };
  }

  async function session(baseUrl: string, who: Who, viewport?: { width: number; height: number }) {
    const opened = await newPage(viewport);
    await signIn(opened.page, baseUrl, who.email, who.password);
    return opened;
  }

  const dialog = (page: Page) => page.getByRole('dialog').last();
  /** Answers the open alert modal with its button `name`. */
  const answer = (page: Page, name: string) =>
    page.getByTestId('alert-modal').getByRole('button', { name }).click();
  const firstOption = (page: Page) => page.getByRole('option').first();
  const tableOrEmpty = (page: Page) =>
    page.locator('table tbody tr, main :text-matches("Nenhum", "i")').first();

  /** The login screen and its states, on a given address (themes come from it). */
  async function loginStates(page: Page, baseUrl: string, suffix: string) {
    await page.goto(`${baseUrl}/login`);
    const heading = () => page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await check(page, `login${suffix}`, 'Entrar', heading);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await check(page, `login: campos obrigatórios${suffix}`, 'Entrar', () =>
      page.getByText('Informe um e-mail válido.').waitFor(),
    );
    await page.getByRole('textbox', { name: 'E-mail' }).fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Senha' }).fill('senha-errada-123');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await check(page, `login: senha errada${suffix}`, 'Entrar', () =>
      page.getByTestId('login-error').waitFor(),
    );
  }

  it('public screens', async () => {
    const { context, page } = await newPage();
    await loginStates(page, server.baseUrl, '');
    await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
    await check(page, 'login: esqueci minha senha', 'Entrar', () => dialog(page).waitFor());
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    await page.getByRole('combobox', { name: 'Unidade federativa' }).click();
    await check(page, 'login: lista de unidades', 'Entrar', () => firstOption(page).waitFor());
    await page.keyboard.press('Escape');

    await page.goto(`${server.baseUrl}/reset-password/52998224725#token=abc`);
    await check(page, 'redefinir senha', 'Redefinir senha', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await page.goto(`${server.baseUrl}/register-password/52998224725#token=abc`);
    await check(page, 'cadastrar senha', 'Cadastrar senha', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await page.goto(`${server.baseUrl}/certificate`);
    await check(page, 'conferir certificado', 'Conferir certificado', () =>
      page.getByRole('textbox', { name: 'Código do certificado' }).waitFor(),
    );
    await page.goto(`${server.baseUrl}/certificate?code=0000-0000-0000-0000`);
    await check(page, 'conferir certificado: não encontrado', 'Conferir certificado', () =>
      page.getByTestId('certificate-check-error').waitFor(),
    );
    await page.goto(`${server.baseUrl}/certificate/DF-000001?code=abc`);
    await check(page, 'certificados (DF): código inválido', 'Certificados', () =>
      page.getByText('Código inválido').waitFor(),
    );
    await page.goto(`${server.baseUrl}/nao-existe`);
    await check(page, 'página não encontrada', 'Página não encontrada', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await context.close();

    // The unit themes, from the address: the host form (DF) and the path form (CE).
    const df = await newPage();
    await loginStates(df.page, `http://df.localhost:${server.port}`, ' (tema DF)');
    await df.context.close();
    const ce = await newPage();
    await loginStates(ce.page, `${server.baseUrl}/ce`, ' (tema CE)');
    await ce.context.close();
  }, 120_000);

  it('ADMIN screens', async () => {
    const { context, page } = await session(server.baseUrl, ADMIN);
    const base = server.baseUrl;

    await check(page, 'painel (ADMIN)', 'Início', () => page.getByTestId('local-cards').waitFor());
    await page.getByRole('button', { name: 'Período', exact: true }).click();
    await check(page, 'painel: calendário', 'Início', () =>
      page.getByRole('button', { name: 'Próximo mês' }).waitFor(),
    );
    // The last seven days: at any hour there are finished exams to open (not so
    // early on a São Paulo day, when today's exams are all still scheduled).
    await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
    await page
      .getByTestId('local-card')
      .first()
      .getByRole('button', { name: /^Ocorrências de/ })
      .click();
    await check(page, 'painel: posto selecionado', 'Início', () =>
      page.getByTestId('selected-local').waitFor(),
    );
    await page.locator('[data-testid^="open-"]').first().click();
    await check(page, 'painel: exames de um contador', 'Início', () =>
      page.getByTestId('counter-exams').waitFor(),
    );

    await page.goto(`${base}/exames`);
    await check(page, 'exames', 'Exames', () => page.locator('table tbody tr').first().waitFor());
    await page.getByRole('combobox', { name: 'Situação' }).click();
    await check(page, 'exames: filtro aberto', 'Exames', () => firstOption(page).waitFor());
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /Importar/ }).click();
    await check(page, 'exames: importar', 'Exames', () => dialog(page).waitFor());
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    // The exam's page while its data is on the way (held until checked), then with it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const detail = /\/api\/Exam\/[^/?]+$/;
    await page.route(detail, async (route) => {
      await held;
      await route.continue();
    });
    await page.locator('table tbody tr a').first().click();
    await check(page, 'exame: carregando', 'Exame', () =>
      page.getByRole('status', { name: 'Carregando exame' }).waitFor(),
    );
    release();
    await check(page, 'exame', 'Exame', () => page.getByTestId('exam-room').waitFor());
    await page.unroute(detail);
    await page.goto(`${base}/exames/nao-existe`);
    await check(page, 'exame inexistente', 'Exame', () =>
      page
        .getByRole('alert')
        .or(page.getByText('Erro', { exact: true }))
        .first()
        .waitFor(),
    );

    await page.goto(`${base}/list-users`);
    await check(page, 'usuários', 'Usuários', () =>
      page.locator('table tbody tr').first().waitFor(),
    );
    await page.getByRole('button', { name: 'Desabilitar' }).first().click();
    await check(page, 'usuários: confirmar desabilitar', 'Usuários', () => dialog(page).waitFor());
    await dialog(page).getByRole('button', { name: 'Cancelar' }).click();
    await dialog(page).waitFor({ state: 'hidden' });

    await page.goto(`${base}/create-users`);
    await check(page, 'novo usuário', 'Novo usuário', () => page.locator('form').first().waitFor());
    await page.getByRole('button', { name: 'Criar usuário' }).click();
    await check(page, 'novo usuário: campos obrigatórios', 'Novo usuário', () =>
      page.locator('[aria-invalid="true"]').first().waitFor(),
    );
    await page.getByRole('textbox', { name: 'Nome completo' }).fill('Pessoa Acessível');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('acessivel@demo.exame.local');
    await page.getByRole('textbox', { name: 'CPF' }).fill('39053344705');
    await page.getByRole('combobox', { name: 'Perfil' }).click();
    await check(page, 'novo usuário: lista de perfis', 'Novo usuário', () =>
      firstOption(page).waitFor(),
    );
    await page.getByRole('option', { name: 'Auditor' }).click();
    await page.getByRole('button', { name: 'Criar usuário' }).click();
    await check(page, 'usuários: aviso de usuário criado', 'Usuários', () =>
      page.getByText('Usuário criado').waitFor(),
    );

    await page.goto(`${base}/scheduling-locals`);
    await check(page, 'postos', 'Postos de atendimento', () =>
      page.locator('table tbody tr').first().waitFor(),
    );
    await page.getByRole('button', { name: /^Novo posto/ }).click();
    await check(page, 'postos: novo posto', 'Postos de atendimento', () => dialog(page).waitFor());
    await page.keyboard.press('Escape');

    await page.goto(`${base}/justificativas`);
    await check(page, 'justificativas', 'Justificativas', () =>
      page.getByTestId('reasons-table').locator('tbody tr').first().waitFor(),
    );
    await page.getByRole('button', { name: 'Nova justificativa' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Salvar' }).click();
    await check(page, 'justificativas: campos obrigatórios', 'Justificativas', () =>
      page.getByRole('dialog').locator('[aria-invalid="true"]').first().waitFor(),
    );
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Desativar/ })
      .first()
      .click();
    await check(page, 'justificativas: confirmar desativação', 'Justificativas', () =>
      page.getByTestId('alert-modal').waitFor(),
    );
    await page.getByTestId('alert-modal').getByRole('button', { name: 'Cancelar' }).click();

    await page.goto(`${base}/integracao`);
    await check(page, 'integração', 'Integração', () => page.locator('main form').waitFor());
    await page.getByRole('textbox', { name: 'Nome da nova chave' }).fill('Sistema de provas');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    await check(page, 'integração: chave criada', 'Integração', () => dialog(page).waitFor());
    await dialog(page).getByRole('button', { name: 'Concluir' }).click();

    await page.goto(`${base}/atividades`);
    await check(page, 'atividades', 'Atividades', () =>
      page.getByTestId('activity-table').locator('tbody tr').first().waitFor(),
    );
    await page.getByLabel('Tipos', { exact: true }).first().click();
    await check(page, 'atividades: tipos', 'Atividades', () => firstOption(page).waitFor());
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Detalhes do evento/ })
      .first()
      .click();
    await check(page, 'atividades: detalhes do evento', 'Atividades', () => dialog(page).waitFor());
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Verificar integridade' }).click();
    await check(page, 'atividades: verificação', 'Atividades', () =>
      page.getByTestId('verify-result').waitFor(),
    );

    await page.goto(`${base}/exam-report/all?${lastWeek()}`);
    await check(page, 'relatório', 'Relatório dos postos', () =>
      page.locator('table').first().waitFor(),
    );
    await page.locator('table tbody tr [data-counter="finished"] button').first().click();
    await check(page, 'relatório: exames de um contador', 'Relatório dos postos', () =>
      page.getByTestId('counter-exams').waitFor(),
    );
    await page.goto(`${base}/room-management`);
    await check(page, 'salas de prova', 'Salas de prova', () =>
      page.getByTestId('room-card').first().waitFor(),
    );
    await page
      .getByRole('button', { name: /^Estações/ })
      .first()
      .click();
    await check(page, 'salas de prova: estações', 'Salas de prova', () => dialog(page).waitFor());
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    await page
      .getByRole('link', { name: /^Abrir quadro/ })
      .first()
      .click();
    await check(page, 'quadro da sala', 'Sala de prova', () =>
      page.getByTestId('room-board').waitFor(),
    );
    await page.goto(`${base}/finished-exam-view`);
    await check(page, 'exames finalizados', 'Emissão de certificados', () =>
      page.getByRole('combobox', { name: 'Sala' }).waitFor(),
    );

    await page.goto(`${base}/demo-register`);
    await check(page, 'cadastro de demonstração', 'Cadastro de demonstração', () =>
      page.locator('form').first().waitFor(),
    );
    await page.goto(`${base}/demo-biometry/52998224725`);
    await check(page, 'biometria', 'Biometria facial', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await page.goto(`${base}/demo-register2/`);
    await check(page, 'contato e consentimento (sem candidato)', 'Contato e consentimento', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await page.goto(`${base}/demo-finished/`);
    await check(page, 'demonstração concluída', 'Demonstração concluída', () =>
      page.getByRole('heading').first().waitFor(),
    );
    await context.close();

    // A phone-sized window: the menu behind its button.
    const phone = await session(base, ADMIN, { width: 390, height: 844 });
    await check(phone.page, 'painel (celular)', 'Início', () =>
      phone.page.getByTestId('local-cards').waitFor(),
    );
    await phone.page.getByRole('button', { name: 'Abrir menu' }).click();
    await check(phone.page, 'menu (celular)', 'Início', () =>
      phone.page
        .getByRole('navigation', { name: 'Menu principal' })
        .getByRole('link')
        .first()
        .waitFor(),
    );
    await phone.context.close();
    // The activity screen's four states added about 20 s on a loaded machine.
  }, 300_000);

  it('auditor, examiner and room-inspector screens', async () => {
    const base = server.baseUrl;
    const auditor = await session(base, AUDITOR);
    await check(auditor.page, 'painel (auditor)', 'Início', () =>
      auditor.page.getByTestId('local-cards').waitFor(),
    );
    await auditor.page.goto(`${base}/exames`);
    await check(auditor.page, 'exames (auditor)', 'Exames', () =>
      auditor.page.locator('table tbody tr').first().waitFor(),
    );
    await auditor.page.locator('table tbody tr a').first().click();
    await check(auditor.page, 'exame (auditor)', 'Exame', () =>
      auditor.page.getByTestId('exam-room').waitFor(),
    );
    // The audit: the queue, an exam with its photos and the disqualify dialog, the photo
    // audit, my audit and my photo audit (the demo queue has reference photos and captures).
    await auditor.page.goto(`${base}/auditoria`);
    await check(auditor.page, 'fila de auditoria', 'Fila de auditoria', () =>
      auditor.page.getByTestId('audit-queue').locator('tbody tr').first().waitFor(),
    );
    await auditor.page
      .getByTestId('audit-queue')
      .getByRole('button', { name: /^Auditar/ })
      .first()
      .click();
    await check(auditor.page, 'auditoria do exame', 'Auditoria do exame', () =>
      auditor.page.getByTestId('claim-state').waitFor(),
    );
    await auditor.page.getByRole('button', { name: 'Desclassificar' }).click();
    await check(auditor.page, 'auditoria: desclassificar', 'Auditoria do exame', () =>
      auditor.page.getByTestId('alert-modal').waitFor(),
    );
    await answer(auditor.page, 'Cancelar');
    await auditor.page.getByRole('link', { name: 'Auditoria de fotos', exact: true }).click();
    await check(auditor.page, 'auditoria de fotos', 'Auditoria de fotos', () =>
      auditor.page.getByTestId('current-capture').waitFor(),
    );
    await auditor.page.keyboard.press('i');
    await check(auditor.page, 'auditoria de fotos: captura marcada', 'Auditoria de fotos', () =>
      auditor.page.getByText('1 de ').waitFor(),
    );
    await auditor.page.goto(`${base}/minha-auditoria`);
    await check(auditor.page, 'minha auditoria', 'Minha auditoria', () =>
      auditor.page.getByTestId('my-holding').waitFor(),
    );
    await auditor.page.goto(`${base}/minha-auditoria-de-fotos`);
    await check(auditor.page, 'minha auditoria de fotos', 'Minha auditoria de fotos', () =>
      auditor.page.getByTestId('my-photo-audits').waitFor(),
    );
    // The cases themselves, with their dialogs, are checked in fraud-cases.e2e.test.ts.
    await auditor.page.goto(`${base}/possiveis-fraudes`);
    await check(auditor.page, 'possíveis fraudes', 'Possíveis fraudes', () =>
      auditor.page.getByText('Nenhum caso encontrado').waitFor(),
    );
    await auditor.page.goto(`${base}/justificativas`);
    await check(auditor.page, 'acesso restrito a justificativas (auditor)', 'Justificativas', () =>
      auditor.page.getByRole('heading', { name: 'Acesso restrito' }).waitFor(),
    );
    await auditor.page.goto(`${base}/list-users`);
    await check(auditor.page, 'acesso restrito (auditor)', 'Usuários', () =>
      auditor.page.getByRole('heading', { name: 'Acesso restrito' }).waitFor(),
    );
    await auditor.page.goto(`${base}/exam-report/all?${lastWeek()}`);
    await check(
      auditor.page,
      'acesso restrito a rota de ADMIN (auditor)',
      'Relatório dos postos',
      () => auditor.page.getByRole('heading', { name: 'Acesso restrito' }).waitFor(),
    );
    await auditor.context.close();

    const viewer = await session(base, VIEWER);
    await check(viewer.page, 'início (examinador)', 'Início', () =>
      viewer.page.locator('main h2').first().waitFor(),
    );
    await viewer.page.goto(`${base}/exames`);
    await check(viewer.page, 'acesso restrito (examinador)', 'Exames', () =>
      viewer.page.getByRole('heading', { name: 'Acesso restrito' }).waitFor(),
    );
    // The room screen: the post, the notice, the second-examiner modal, the open room.
    const room = viewer.page;
    await room.goto(`${base}/viewer-checkin`);
    await check(room, 'sala de prova: posto', 'Sala de prova', () =>
      room.getByRole('combobox', { name: 'Posto de atendimento' }).waitFor(),
    );
    await room.getByRole('combobox', { name: 'Posto de atendimento' }).click();
    await room.getByRole('option').first().click();
    await check(room, 'sala de prova: examinador 1', 'Sala de prova', () =>
      room.getByRole('button', { name: 'Abrir a sala' }).waitFor(),
    );
    // The demo posts have rooms: the examiner takes one.
    const roomChoice = room.getByRole('combobox', { name: /Sala de prova/ });
    await expect.poll(() => roomChoice.isEnabled()).toBe(true);
    await roomChoice.click();
    await room.getByRole('option', { name: 'Sala 1 (S1)' }).click();
    await room.getByRole('button', { name: 'Abrir a sala' }).click();
    await check(room, 'sala de prova: aviso', 'Sala de prova', () =>
      room.getByTestId('alert-modal').waitFor(),
    );
    await room.getByTestId('alert-modal').getByRole('button', { name: 'Ok' }).click();
    const examiners = room.getByRole('dialog', { name: 'Examinadores da sala' });
    await examiners.getByRole('textbox', { name: 'Email' }).fill('fiscal@demo.exame.local');
    await check(room, 'sala de prova: segundo examinador', 'Sala de prova', () =>
      examiners.waitFor(),
    );
    await examiners.getByRole('button', { name: 'Limpar' }).click();
    await examiners.getByRole('button', { name: 'Abrir a sala' }).click();
    await check(room, 'sala de prova: sala aberta', 'Sala de prova', () =>
      room.getByTestId('open-room').waitFor(),
    );
    await viewer.context.close();

    const transfer = await session(base, ROOM_INSPECTOR);
    await transfer.page.goto(`${base}/change-examiner`);
    await check(transfer.page, 'transferir a sala (sem sala aberta)', 'Transferir a sala', () =>
      transfer.page.getByRole('heading', { name: 'Transferir a sala' }).waitFor(),
    );
    await transfer.context.close();

    const checkIns = await session(base, AUDITOR);
    await checkIns.page.goto(`${base}/check-ins`);
    await check(checkIns.page, 'entradas nas salas (auditor)', 'Entradas nas salas', () =>
      checkIns.page.getByTestId('check-ins-table').waitFor(),
    );
    await checkIns.page
      .getByRole('button', { name: /Detalhes/ })
      .first()
      .click();
    await check(checkIns.page, 'entradas nas salas: detalhe', 'Entradas nas salas', () =>
      checkIns.page
        .getByRole('dialog', { name: 'Registro de entrada' })
        .getByText('Histórico')
        .waitFor(),
    );
    await checkIns.context.close();

    const inspector = await session(base, ROOM_INSPECTOR);
    await check(inspector.page, 'início (fiscal de sala)', 'Início', () =>
      inspector.page.locator('main h2').first().waitFor(),
    );
    await inspector.context.close();
  }, 180_000);

  it('every alert and decision modal of the audit, open, named by its title', async () => {
    const base = server.baseUrl;
    const one = await session(base, AUDITOR);
    /** The audit screen with the dialog `name` open, checked as `auditoria: <name>`. */
    const checkDialog = (page: Page, name: string) =>
      check(page, `auditoria: ${name.toLowerCase()}`, 'Auditoria do exame', () =>
        page.getByRole('dialog', { name, exact: true }).waitFor(),
      );
    // An exam of the queue with a score, so that its result can be released; not one of the
    // first rows, which the screens above opened, claimed and marked.
    await one.page.goto(`${base}/auditoria`);
    const rows = one.page.getByTestId('audit-queue').locator('tbody tr');
    await rows.first().waitFor();
    const release = one.page.getByRole('button', { name: /^Liberar resultado \(/ });
    let examPath = '';
    const last = Math.min(12, await rows.count());
    for (let index = Math.min(3, last - 1); index < last && !examPath; index += 1) {
      await one.page.goto(`${base}/auditoria`);
      await rows
        .nth(index)
        .getByRole('button', { name: /^Auditar/ })
        .click();
      await one.page.getByTestId('claim-state').waitFor();
      await expect
        .poll(() => one.page.getByTestId('claim-state').textContent())
        .toContain('Você audita este exame');
      if (await release.isEnabled()) examPath = new URL(one.page.url()).pathname;
    }
    expect(examPath).toMatch(/^\/auditoria\/.+/);

    await release.click();
    await checkDialog(one.page, 'Liberar o resultado');
    await answer(one.page, 'Cancelar');
    await one.page.getByRole('button', { name: 'Desclassificar', exact: true }).click();
    await checkDialog(one.page, 'Desclassificar o exame');
    await answer(one.page, 'Cancelar');

    // A second auditor opening the exam held by the first: the auditor alert.
    const two = await session(base, AUDITOR_2);
    await two.page.goto(`${base}${examPath}`);
    await checkDialog(two.page, 'Exame em auditoria');
    await answer(two.page, 'Ok');

    // The first disqualifies; under the two-person rule the decision waits for the second, who
    // opens the two confirmation dialogs.
    await one.page.getByRole('button', { name: 'Desclassificar', exact: true }).click();
    const modal = one.page.getByTestId('alert-modal');
    await modal.getByRole('combobox', { name: 'Motivo da desclassificação' }).click();
    await one.page.getByRole('option').first().click();
    await modal
      .getByRole('textbox', { name: 'Observação' })
      .fill('Outra pessoa aparece diante da câmera.');
    await modal.getByRole('button', { name: 'Desclassificar' }).click();
    await expect
      .poll(() => one.page.getByTestId('decision-panel').textContent())
      .toContain('aguardando a confirmação');
    await one.context.close();
    await two.page.goto(`${base}${examPath}`);
    await two.page.getByRole('button', { name: 'Confirmar decisão' }).click();
    await checkDialog(two.page, 'Confirmar a decisão');
    await answer(two.page, 'Cancelar');
    await two.page.getByRole('button', { name: 'Não confirmar' }).click();
    await checkDialog(two.page, 'Não confirmar a decisão');
    await two.page.keyboard.press('Escape');
    await dialog(two.page).waitFor({ state: 'hidden' });
    await two.page.getByRole('button', { name: 'Confirmar decisão' }).click();
    await answer(two.page, 'Confirmar');
    await expect
      .poll(() => two.page.getByTestId('decision-panel').textContent())
      .toContain('Decisão em vigor');
    await two.context.close();

    // The ADMIN reopens the decision that is in force.
    const admin = await session(base, ADMIN);
    await admin.page.goto(`${base}${examPath}`);
    await admin.page.getByRole('button', { name: 'Reabrir decisão' }).click();
    await checkDialog(admin.page, 'Reabrir a decisão');
    await admin.page.keyboard.press('Escape');
    await admin.context.close();
  }, 180_000);

  it('DF and CE themes', async () => {
    // The DF unit's own administrator on the unit's address (host form).
    const dfHost = `http://df.localhost:${server.port}`;
    const df = await session(dfHost, DF_ADMIN);
    await check(df.page, 'painel (tema DF, unidade DF)', 'Início', () =>
      df.page.getByRole('heading').first().waitFor(),
    );
    await df.page.goto(`${dfHost}/list-users`);
    await check(df.page, 'usuários (tema DF)', 'Usuários', () =>
      df.page.locator('table tbody tr').first().waitFor(),
    );
    await df.context.close();

    // Both themes over the demo data (path form), screen by screen.
    for (const [uf, theme] of [
      ['df', 'tema DF'],
      ['ce', 'tema CE'],
    ] as const) {
      const base = `${server.baseUrl}/${uf}`;
      const { context, page } = await session(base, ADMIN);
      await check(page, `painel (${theme})`, 'Início', () =>
        page.getByTestId('local-cards').waitFor(),
      );
      await page.getByRole('button', { name: 'Período', exact: true }).click();
      await check(page, `painel: calendário (${theme})`, 'Início', () =>
        page.getByRole('button', { name: 'Próximo mês' }).waitFor(),
      );
      // The last seven days: at any hour there are finished exams to open (not so
      // early on a São Paulo day, when today's exams are all still scheduled).
      await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
      await page.getByTestId('resume-approved').click();
      await page.locator('[data-testid^="open-"]').first().click();
      await check(page, `painel: contador e exames (${theme})`, 'Início', () =>
        page.getByTestId('counter-exams').waitFor(),
      );
      await page.goto(`${base}/exames`);
      await check(page, `exames (${theme})`, 'Exames', () => tableOrEmpty(page).waitFor());
      await page.locator('table tbody tr a').first().click();
      await check(page, `exame (${theme})`, 'Exame', () => page.getByTestId('exam-room').waitFor());
      await page.goto(`${base}/list-users`);
      await check(page, `usuários (${theme})`, 'Usuários', () =>
        page.locator('table tbody tr').first().waitFor(),
      );
      await page.goto(`${base}/create-users`);
      await page.getByRole('button', { name: 'Criar usuário' }).click();
      await check(page, `novo usuário: campos obrigatórios (${theme})`, 'Novo usuário', () =>
        page.locator('[aria-invalid="true"]').first().waitFor(),
      );
      await page.goto(`${base}/scheduling-locals`);
      await check(page, `postos (${theme})`, 'Postos de atendimento', () =>
        page.locator('table tbody tr').first().waitFor(),
      );
      await page.goto(`${base}/exam-report/all?${lastWeek()}`);
      await check(page, `relatório (${theme})`, 'Relatório dos postos', () =>
        page.locator('table').first().waitFor(),
      );
      await context.close();
    }
  }, 240_000);

  it('found no serious or critical violation, and every screen has its title', () => {
    expect(found).toEqual([]);
    expect(wrongTitles).toEqual([]);
    expect(reports.length).toBeGreaterThanOrEqual(50);
  });
});
