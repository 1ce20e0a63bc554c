/**
 * Step 1 of the demonstration (`/demo-register/`, tab "Candidato"): the
 * server's pt-BR messages under each field with nothing sent; a valid form
 * posts the CPF as digits and the birth date as `YYYY-MM-DD`, then goes on
 * to step 2 with `?cpf=`.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useLocation } from 'react-router';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { DemoCandidateStep } from './demo-candidate-step';
import { birthDateToIso, formatBirthDate, formatPhone } from './masks';
import { signInForEachTest } from '../../../test/signed-in';

function StepTwo() {
  const location = useLocation();
  return <p>etapa 2 {location.search}</p>;
}

const user = userEvent.setup({ delay: null });
/** Fills a field in one input event (the machine running the tests may be slow). */
async function fill(name: RegExp, text: string) {
  await user.click(screen.getByLabelText(name));
  await user.paste(text);
}

const renderStep = () =>
  renderRoutes(
    [
      { path: '/demo-register', element: <DemoCandidateStep /> },
      { path: '/demo-register2', element: <StepTwo /> },
    ],
    '/demo-register',
  );

describe('demo candidate, step 1', () => {
  signInForEachTest({ ...TEST_USER, federativeUnit: 'DEMO', roleDescription: 'ADMIN' });

  it('masks the birth date and the phone; an impossible day is no date', () => {
    expect(formatBirthDate('31011990')).toBe('31/01/1990');
    expect(birthDateToIso('31/01/1990')).toBe('1990-01-31');
    expect(birthDateToIso('31/02/1990')).toBeNull();
    expect(birthDateToIso('31/01')).toBe('');
    expect(formatPhone('61999991234')).toBe('(61) 99999-1234');
    expect(formatPhone('6133331234')).toBe('(61) 3333-1234');
  });

  it('shows each problem under its field and sends nothing', async () => {
    const calls = stubServer({});
    renderStep();
    await fill(/CPF/, '11111111111');
    await fill(/Data de nascimento/, '31022000');
    await user.click(screen.getByText('Cadastrar e continuar'));
    expect(await screen.findByText('Informe o nome completo do candidato.')).toBeInTheDocument();
    expect(screen.getByText('CPF inválido.')).toBeInTheDocument();
    expect(screen.getByText('Data inválida.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('posts the CPF as digits and the date as YYYY-MM-DD, then opens step 2', async () => {
    const calls = stubServer({
      'POST /api/Demo/candidates': () =>
        json(201, { id: 'c1', name: 'Bruna Lima', cpf: '52998224725' }),
    });
    renderStep();
    await fill(/Nome completo/, ' Bruna Lima ');
    await fill(/CPF/, '52998224725');
    expect(screen.getByLabelText(/CPF/)).toHaveValue('529.982.247-25');
    await fill(/Data de nascimento/, '31011990');
    await user.click(screen.getByText('Cadastrar e continuar'));
    expect(await screen.findByText('etapa 2 ?cpf=52998224725')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      name: 'Bruna Lima',
      cpf: '52998224725',
      birthDate: '1990-01-31',
    });
  });
});
