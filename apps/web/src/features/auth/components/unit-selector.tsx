/**
 * The federative unit of the screen before sign-in: selecting one applies and
 * keeps its theme (spec 4). On a unit's own address (df.localhost) the unit
 * comes from the address and no selector is needed.
 */
import { Select } from '@mantine/core';
import { federativeUnitSchema, type FederativeUnit } from '@exame/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { appStore, useAppState } from '../../../lib/app-store';

export const activeUnitsQuery = queryOptions({
  queryKey: ['federative-units', 'active'],
  queryFn: async ({ signal }): Promise<FederativeUnit[]> =>
    z
      .array(federativeUnitSchema)
      .parse(await api.get('api/FederativeUnit', { query: { onlyActive: true }, signal })),
  staleTime: 60 * 60_000,
});

export function UnitSelector() {
  const units = useQuery(activeUnitsQuery);
  const selected = useAppState((state) => state.federativeUnitSelected);
  return (
    <Select
      label="Unidade federativa"
      placeholder="Selecione a sua unidade"
      data={(units.data ?? []).map((unit) => ({
        value: unit.uf,
        label: `${unit.uf} — ${unit.name}`,
      }))}
      value={selected}
      onChange={(uf) => {
        const unit = units.data?.find((item) => item.uf === uf);
        if (unit) appStore.selectFederativeUnit(unit);
      }}
      disabled={units.isPending}
      allowDeselect={false}
      searchable
      // Every active unit fits without a scrolling list (a scrolling list box
      // would need a focusable viewport, which a list box may not contain).
      maxDropdownHeight={400}
      size="sm"
    />
  );
}
