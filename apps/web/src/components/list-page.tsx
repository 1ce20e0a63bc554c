/**
 * The one pattern of the list screens (users, posts, exams): a header with the
 * title, a line of description and the main action; a search field; the table
 * in a `QueryContent` (loading, error, empty); the `PaginationFooter`. The
 * state of search and pages lives in `usePagedSearch`.
 */
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

export function ListPageHeader({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <Stack gap={0}>
        <Title order={2}>{title}</Title>
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      </Stack>
      {action}
    </Group>
  );
}

/** The search text, debounced for the query, and the page and page size it resets. */
export function usePagedSearch(initialPageSize: number) {
  const [search, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeValue] = useState(initialPageSize);
  return {
    search,
    debouncedSearch,
    page,
    pageSize,
    setPage,
    setSearch: (text: string) => {
      setSearchText(text);
      setPage(1);
    },
    setPageSize: (size: number) => {
      setPageSizeValue(size);
      setPage(1);
    },
  };
}

export function ListSearch({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <TextInput
      placeholder={placeholder}
      aria-label={label}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      maw={420}
    />
  );
}
