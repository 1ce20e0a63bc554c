/** Face enrolment through the API, as an ADMIN does on the biometry screen, for the specs that need faces. */
import { expect } from 'vitest';
import { devPhoto } from '../../apps/server/test/faces/captures';

/** Signs `admin` in and enrols each CPF with its dev fixture photo. */
export async function enrolFaces(
  baseUrl: string,
  admin: { email: string; password: string },
  faces: ReadonlyArray<readonly [cpf: string, photo: string]>,
): Promise<void> {
  const login = await fetch(`${baseUrl}/api/Auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { token } = (await login.json()) as { token: string };
  for (const [cpf, photo] of faces) {
    const enrol = await fetch(`${baseUrl}/api/BiopassID/Create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ cpf, images: [(await devPhoto(photo)).toString('base64')] }),
    });
    expect(enrol.status).toBe(201);
  }
}
