/**
 * Rejects the most common passwords (ASVS 2.1.7): the common-password list of
 * zxcvbn-ts, Brazilian favourites, and a pt-BR word or first name followed only
 * by a few digits or symbols ("maria123", "flamengo#10"). Heavy: the web app
 * loads this module on demand.
 */
import { dictionary as common } from '@zxcvbn-ts/language-common';
import { dictionary as ptBr } from '@zxcvbn-ts/language-pt-br';

const PT_BR_FAVOURITES = [
  'senha',
  'senha1',
  'senha12',
  'senha123',
  'senha1234',
  'minhasenha',
  'mudar123',
  'mudarsenha',
  'trocar123',
  'brasil',
  'brasil123',
  'teamo',
  'teamo123',
  'amor123',
  'deusefiel',
  'jesus123',
  'flamengo',
  'corinthians',
  'palmeiras',
  'saopaulo',
  'santos',
  'vasco',
  'gremio',
  'cruzeiro',
  'botafogo',
  'fluminense',
  'internacional',
  'atletico',
  'bahia',
  'qwe123',
  'asd123',
  'abc123',
  'a1b2c3',
  'admin',
  'admin123',
  'detran',
  'detran123',
];

let commonSet: Set<string> | undefined;
let wordSet: Set<string> | undefined;

function sets(): { commonSet: Set<string>; wordSet: Set<string> } {
  if (!commonSet || !wordSet) {
    commonSet = new Set([...(common['passwords-common'] as string[]), ...PT_BR_FAVOURITES]);
    wordSet = new Set(
      [
        ...((ptBr['commonWords-pt-br'] as string[] | undefined) ?? []).slice(0, 20_000),
        ...((ptBr['firstnames-pt-br'] as string[] | undefined) ?? []),
      ].filter((word) => word.length >= 4),
    );
  }
  return { commonSet, wordSet };
}

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const { commonSet: passwords, wordSet: words } = sets();
  if (passwords.has(lower)) return true;
  // A word with only a short run of digits or symbols around it.
  const match = /^[^a-zà-ÿ]{0,4}([a-zà-ÿ]+)[^a-zà-ÿ]{0,4}$/.exec(lower);
  const word = match?.[1];
  if (!word) return false;
  const plain = word.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return words.has(word) || words.has(plain) || passwords.has(word) || passwords.has(plain);
}
