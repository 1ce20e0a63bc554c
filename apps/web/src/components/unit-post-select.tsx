/**
 * The "Posto" filter of a list: one of the unit's posts (`unitPostsQuery`),
 * searchable; cleared, it stands for every post ("Todos").
 */
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { unitPostsQuery } from '../api/unit-posts';

export function UnitPostSelect({
  value,
  onChange,
}: {
  /** The post's identifier, or null for every post. */
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const posts = useQuery(unitPostsQuery);
  return (
    <Select
      label="Posto"
      placeholder="Todos"
      data={(posts.data?.items ?? []).map((local) => ({
        value: local.identifier,
        label: local.description,
      }))}
      value={value}
      onChange={onChange}
      searchable
      clearable
      w={240}
      maw="100%"
    />
  );
}
