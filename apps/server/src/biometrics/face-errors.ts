/**
 * Stable codes and pt-BR texts of the face engine. Each text tells the person
 * what to change before trying again, because the capture screen shows it
 * as is in the 'Falha na validação' modal.
 *
 * Server-only, unlike the catalogues of the shared package: no screen
 * branches on these codes (the web shows the `Error` text it receives), so
 * they live with the engine that raises them.
 */
import { errorCatalogue } from '@exame/shared';
import { AppError } from '../lib/app-error';

export const FACE_ERRORS = errorCatalogue({
  FACE_NOT_FOUND: {
    status: 422,
    message:
      'Nenhum rosto foi encontrado na imagem. Posicione o rosto de frente para a câmera, sem óculos escuros, boné ou máscara.',
  },
  FACE_MULTIPLE: {
    status: 422,
    message:
      'Mais de um rosto foi encontrado na imagem. Fique sozinho diante da câmera e tente novamente.',
  },
  FACE_TOO_SMALL: {
    status: 422,
    message: 'O rosto está muito pequeno na imagem. Aproxime-se da câmera.',
  },
  FACE_TOO_DARK: {
    status: 422,
    message: 'A imagem está escura demais. Procure um local mais iluminado ou acenda a luz.',
  },
  FACE_BLURRED: {
    status: 422,
    message:
      'A imagem está desfocada ou tremida. Fique parado, limpe a lente da câmera e tente novamente.',
  },
  // The enrolment gate (enrolment-gate.ts): stricter than the codes above,
  // because an enrolled template serves every later check of the person.
  FACE_ENROL_EXPRESSION: {
    status: 422,
    message:
      'Para o cadastro, mantenha uma expressão neutra: feche a boca, não sorria nem faça careta e deixe os olhos abertos.',
  },
  FACE_ENROL_POSE: {
    status: 422,
    message:
      'Para o cadastro, olhe de frente para a câmera, sem virar, levantar, abaixar ou inclinar a cabeça.',
  },
  FACE_ENROL_BLURRED: {
    status: 422,
    message:
      'A imagem do cadastro ficou sem nitidez. Fique parado, limpe a lente da câmera, procure um local bem iluminado e tente novamente.',
  },
  FACE_ENROL_TOO_SMALL: {
    status: 422,
    message:
      'O rosto está pequeno demais para o cadastro. Aproxime-se da câmera até o rosto preencher a moldura.',
  },
  FACE_ENROL_OCCLUDED: {
    status: 422,
    message:
      'Parte do rosto parece encoberta. Retire máscara, óculos escuros, boné ou a mão da frente do rosto, afaste o cabelo e olhe de frente para a câmera.',
  },
  FACE_TEMPLATE_INVALID: {
    status: 500,
    message: 'O modelo biométrico armazenado é inválido. Faça um novo cadastro facial.',
  },
  FACE_TEMPLATE_OUTDATED: {
    status: 409,
    message:
      'O cadastro facial deste CPF foi feito por uma versão anterior do reconhecimento facial e não pôde ser atualizado. Faça um novo cadastro facial.',
  },
  /** An analysis ran past FACE_TIMEOUT_MS: its worker was stopped and replaced. */
  FACE_TIMEOUT: {
    status: 503,
    message:
      'A verificação facial demorou demais e foi interrompida. Tente novamente em alguns instantes.',
  },
  FACE_ENGINE_UNAVAILABLE: {
    status: 503,
    message:
      'A verificação facial está indisponível no momento. Tente novamente em alguns instantes.',
  },
});

export type FaceErrorCode = keyof typeof FACE_ERRORS;

export function faceError(code: FaceErrorCode, details?: AppError['details']): AppError {
  const { status, message } = FACE_ERRORS[code];
  return new AppError(code, message, status, details);
}

/** FACE_ENGINE_UNAVAILABLE, keeping what failed underneath for the server log. */
export function engineUnavailable(cause: unknown): AppError {
  const error = faceError('FACE_ENGINE_UNAVAILABLE');
  error.cause = cause;
  return error;
}
