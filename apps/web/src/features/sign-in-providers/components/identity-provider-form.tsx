/**
 * The form of an identity provider: name on the button, issuer, client id
 * and secret (kept when left empty on a change), authorized e-mail domains
 * (one per line), the claim carrying the CPF, and whether it is offered.
 * Validated with the server's own schema, so the texts are the same.
 */
import {
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  identityProviderInputSchema,
  type IdentityProvider,
  type IdentityProviderInput,
} from '@exame/shared';
import { useState, type FormEvent } from 'react';
import { textField, validateForm, type FieldErrors } from '../../../lib/forms';

type Fields = {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  cpfClaim: string;
  enabled: boolean;
  removeSecret: boolean;
};

const fieldsOf = (provider: IdentityProvider | null): Fields => ({
  name: provider?.name ?? '',
  issuer: provider?.issuer ?? '',
  clientId: provider?.clientId ?? '',
  clientSecret: '',
  domains: provider?.allowedDomains.join('\n') ?? '',
  cpfClaim: provider?.cpfClaim ?? '',
  enabled: provider?.enabled ?? true,
  removeSecret: false,
});

export function IdentityProviderForm({
  provider,
  saving,
  onSubmit,
  onCancel,
}: {
  /** The provider being changed; null for a new one. */
  provider: IdentityProvider | null;
  saving: boolean;
  onSubmit: (input: IdentityProviderInput) => void;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState(() => fieldsOf(provider));
  const [errors, setErrors] = useState<FieldErrors<IdentityProviderInput>>({});
  const set =
    <K extends keyof Fields>(key: K) =>
    (value: Fields[K]) =>
      setFields((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: IdentityProviderInput = {
      name: fields.name,
      issuer: fields.issuer,
      clientId: fields.clientId,
      // On a change, an empty field keeps the stored secret; "remove" makes the client public.
      clientSecret: fields.removeSecret ? '' : fields.clientSecret || undefined,
      allowedDomains: fields.domains.split(/[\s,;]+/).filter(Boolean),
      cpfClaim: fields.cpfClaim.trim() || null,
      enabled: fields.enabled,
    };
    const checked = validateForm(identityProviderInputSchema, input);
    setErrors(checked.errors ?? {});
    if (checked.data) onSubmit(input);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Nome no botão de entrada"
          description="Ex.: gov.br, Rede do Estado"
          {...textField(fields.name, set('name'))}
          error={errors.name}
          required
          data-autofocus
        />
        <TextInput
          label="Emissor (issuer)"
          description="Ex.: https://sso.acesso.gov.br ou https://sso.df.gov.br/realms/detran"
          {...textField(fields.issuer, set('issuer'))}
          error={errors.issuer}
          required
        />
        <TextInput
          label="Client id"
          {...textField(fields.clientId, set('clientId'))}
          error={errors.clientId}
          required
        />
        <PasswordInput
          label="Client secret"
          description={
            provider?.hasClientSecret
              ? 'Guardado cifrado. Deixe em branco para mantê-lo.'
              : 'Em branco para um cliente público.'
          }
          autoComplete="off"
          {...textField(fields.clientSecret, set('clientSecret'))}
          error={errors.clientSecret}
          disabled={fields.removeSecret}
        />
        {provider?.hasClientSecret && (
          <Checkbox
            label="Remover o segredo guardado (cliente público)"
            checked={fields.removeSecret}
            onChange={(event) => set('removeSecret')(event.currentTarget.checked)}
          />
        )}
        <Textarea
          label="Domínios autorizados"
          description="Um por linha (ex.: detran.df.gov.br). Em branco: qualquer e-mail."
          autosize
          minRows={2}
          value={fields.domains}
          onChange={(event) => set('domains')(event.currentTarget.value)}
          error={errors.allowedDomains}
        />
        <TextInput
          label="Atributo com o CPF (claim)"
          description="No gov.br é sub. Em branco: a conta é ligada pelo e-mail verificado."
          {...textField(fields.cpfClaim, set('cpfClaim'))}
          error={errors.cpfClaim}
        />
        <Switch
          label="Oferecer na tela de entrada"
          checked={fields.enabled}
          onChange={(event) => set('enabled')(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancelar
          </Button>
          <Button type="submit" loading={saving}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
