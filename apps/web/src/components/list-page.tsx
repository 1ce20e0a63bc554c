/**
 * The one pattern of the paginated lists (users, posts, exams, the exams
 * behind a counter): a header (title, a line of description and the main
 * action, or a header of its own); a search field or filters; the table in a
 * `QueryContent` (loading, error, empty); the `PaginationFooter`. The state of
 * pages lives in `usePaging`, with the search in `usePagedSearch`. Lists
 * that turn into cards on narrow screens (audit queue, possible frauds) build
 * their own body from `ListTable` and `ListPageBody`.
 */
import { Group, Paper, Stack, Table, Text, TextInput, Title, type TableProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { PaginationFooter } from './pagination-footer';
import { QueryContent } from './query-content';
import { textField } from '../lib/forms';

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
  /**
   * A filter's setter that also starts again on the first page:
   * `onChange={paging.restarting(setPost)}`.
   */
  restarting: <T>(set: (value: T) => void) => (value: T) => void;
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
    restarting: (set) => (value) => {
      set(value);
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
      {...textField(value, onChange)}
      maw={420}
    />
  );
}

/** Under a list whose query refetches with its page still shown: says it is being refreshed. */
export function RefreshingNotice({
  query,
}: {
  query: Pick<UseQueryResult, 'isFetching' | 'isPending'>;
}) {
  if (!query.isFetching || query.isPending) return null;
  return (
    <Text size="xs" c="dimmed" aria-live="polite">
      Atualizando...
    </Text>
  );
}

type ListHeading =
  | { title: string; description: ReactNode; action?: ReactNode; header?: never }
  | { header: ReactNode; title?: never; description?: never; action?: never };

type ListData = {
  items: ReadonlyArray<{ id: string }>;
  total: number;
  totalCapped?: boolean;
  totalEstimated?: boolean;
};
type ItemOf<TPage extends ListData> = TPage['items'][number];

/** The head cell of a column of row actions, named for screen readers. */
export const ACTIONS_COLUMN = <Table.Th aria-label="Ações" />;

export type ListTableProps = Omit<TableProps, 'children'> & {
  /** The head of each column: a text, or a head cell of its own (sorting, actions). */
  columns: readonly ReactNode[];
  /** The rows (`Table.Tr`). */
  children: ReactNode;
  'data-testid'?: string;
};

/** The table of a list: striped, rows lit on hover, a head row of `columns` over the rows. */
export function ListTable({ columns, children, ...table }: ListTableProps) {
  return (
    <Table striped highlightOnHover verticalSpacing="sm" {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column, index) =>
            typeof column === 'string' ? (
              <Table.Th key={column}>{column}</Table.Th>
            ) : (
              <Fragment key={index}>{column}</Fragment>
            ),
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}

/**
 * Under the header and filters of a list: the list, then the
 * `PaginationFooter` once a page came. A table of a page of its own sits in a
 * bordered panel (`panel`); cards stand on their own, and so does a list
 * inside a panel of the caller.
 */
export function ListPageBody({
  panel,
  data,
  paging,
  noun,
  children,
}: {
  panel: boolean;
  data: Pick<ListData, 'total' | 'totalCapped' | 'totalEstimated'> | undefined;
  paging: Paging;
  /** Singular and plural, e.g. ['exame', 'exames']. */
  noun: readonly [string, string];
  children: ReactNode;
}) {
  return (
    <>
      {panel ? (
        <Paper withBorder radius="md">
          {children}
        </Paper>
      ) : (
        children
      )}
      {data && (
        <PaginationFooter
          total={data.total}
          totalCapped={data.totalCapped}
          totalEstimated={data.totalEstimated}
          page={paging.page}
          pageSize={paging.pageSize}
          noun={noun}
          onPage={paging.setPage}
          onPageSize={paging.setPageSize}
        />
      )}
    </>
  );
}

type PagedSearch = ReturnType<typeof usePagedSearch>;

type ListPaging =
  | { search?: undefined; paging: Paging }
  | {
      /** A search field under the header, bound to the search state of `paging`. */
      search: Pick<ListSearchProps, 'label' | 'placeholder'>;
      paging: Paging & Pick<PagedSearch, 'search' | 'setSearch'>;
    };

export type ListPageProps<TPage extends ListData> = ListHeading &
  ListPaging & {
    /** Filters of the list's own, under the header. */
    filters?: ReactNode;
    query: UseQueryResult<TPage, Error>;
    loadingLabel: string;
    /** What an empty page says. */
    empty: ReactNode;
    /** The head of each column: a text, or a head cell of its own (sorting, actions). */
    columns: readonly ReactNode[];
    /** The cells of an item's row. */
    row: (item: ItemOf<TPage>) => ReactNode;
    /** Below this width the table scrolls sideways. */
    minWidth: number;
    table?: Omit<TableProps, 'children'> & { 'data-testid'?: string };
    /** Singular and plural, e.g. ['exame', 'exames']. */
    noun: readonly [string, string];
    /**
     * A page of its own (the table in a bordered panel), or a list inside a
     * panel of the caller (`embedded`: compact states, no second border).
     */
    embedded?: boolean;
    /** Below the pages, e.g. a refresh notice. */
    below?: ReactNode;
  };

export function ListPage<TPage extends ListData>(props: ListPageProps<TPage>) {
  const { query, paging, embedded = false } = props;
  const content = (
    <QueryContent
      query={query}
      loadingLabel={props.loadingLabel}
      isEmpty={(page) => page.items.length === 0}
      empty={props.empty}
      compact={embedded}
    >
      {(page) => (
        <Table.ScrollContainer minWidth={props.minWidth}>
          <ListTable columns={props.columns} aria-busy={query.isFetching} {...props.table}>
            {page.items.map((item) => (
              <Table.Tr key={item.id}>{props.row(item)}</Table.Tr>
            ))}
          </ListTable>
        </Table.ScrollContainer>
      )}
    </QueryContent>
  );
  return (
    <Stack gap={embedded ? 'sm' : 'md'}>
      {props.title !== undefined ? (
        <ListPageHeader title={props.title} description={props.description} action={props.action} />
      ) : (
        props.header
      )}
      {props.search !== undefined && (
        <ListSearch
          {...props.search}
          value={props.paging.search}
          onChange={props.paging.setSearch}
        />
      )}
      {props.filters}
      <ListPageBody panel={!embedded} data={query.data} paging={paging} noun={props.noun}>
        {content}
      </ListPageBody>
      {props.below}
    </Stack>
  );
}
