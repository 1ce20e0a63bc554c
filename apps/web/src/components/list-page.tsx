/**
 * The one pattern of the paginated lists (users, posts, exams, the exams
 * behind a counter): a header (title, a line of description and the main
 * action, or a header of its own); a search field or filters; the table in a
 * `QueryContent` (loading, error, empty); the `PaginationFooter`. The state of
 * pages lives in `usePaging`, with the search in `usePagedSearch`.
 */
import { Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { PaginationFooter } from './pagination-footer';
import { QueryContent } from './query-content';

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

export type Paging = {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  /** A new page size starts again on the first page. */
  setPageSize: (pageSize: number) => void;
};

/** The page and page size of a server-paginated list. */
export function usePaging(initialPageSize: number): Paging {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeValue] = useState(initialPageSize);
  return {
    page,
    pageSize,
    setPage,
    setPageSize: (size: number) => {
      setPageSizeValue(size);
      setPage(1);
    },
  };
}

/** The search text, debounced for the query, and the paging it resets. */
export function usePagedSearch(initialPageSize: number, debounceMs = 300) {
  const paging = usePaging(initialPageSize);
  const [search, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), debounceMs);
  return {
    ...paging,
    search,
    debouncedSearch,
    setSearch: (text: string) => {
      setSearchText(text);
      paging.setPage(1);
    },
  };
}

export type ListSearchProps = {
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
};

export function ListSearch({ label, placeholder, value, onChange }: ListSearchProps) {
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

type ListHeading =
  | { title: string; description: ReactNode; action?: ReactNode; header?: never }
  | { header: ReactNode; title?: never; description?: never; action?: never };

export type ListPageProps<TPage extends { items: readonly unknown[]; total: number }> =
  ListHeading & {
    /** A search field under the header... */
    search?: ListSearchProps;
    /** ...or filters of the list's own. */
    filters?: ReactNode;
    query: UseQueryResult<TPage, Error>;
    loadingLabel: string;
    /** What an empty page says. */
    empty: ReactNode;
    paging: Paging;
    /** Singular and plural, e.g. ['exame', 'exames']. */
    noun: readonly [string, string];
    /**
     * A page of its own (the table in a bordered panel), or a list inside a
     * panel of the caller (`embedded`: compact states, no second border).
     */
    embedded?: boolean;
    /** Below the pages, e.g. a refresh notice. */
    below?: ReactNode;
    /** The table of a loaded, non-empty page. */
    children: (page: TPage) => ReactNode;
  };

export function ListPage<TPage extends { items: readonly unknown[]; total: number }>(
  props: ListPageProps<TPage>,
) {
  const { query, paging, embedded = false } = props;
  const content = (
    <QueryContent
      query={query}
      loadingLabel={props.loadingLabel}
      isEmpty={(page) => page.items.length === 0}
      empty={props.empty}
      compact={embedded}
    >
      {props.children}
    </QueryContent>
  );
  return (
    <Stack gap={embedded ? 'sm' : 'md'}>
      {props.title !== undefined ? (
        <ListPageHeader title={props.title} description={props.description} action={props.action} />
      ) : (
        props.header
      )}
      {props.search && <ListSearch {...props.search} />}
      {props.filters}
      {embedded ? (
        content
      ) : (
        <Paper withBorder radius="md">
          {content}
        </Paper>
      )}
      {query.data && (
        <PaginationFooter
          total={query.data.total}
          page={paging.page}
          pageSize={paging.pageSize}
          noun={props.noun}
          onPage={paging.setPage}
          onPageSize={paging.setPageSize}
        />
      )}
      {props.below}
    </Stack>
  );
}
