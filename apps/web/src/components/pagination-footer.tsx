/** Below a paginated table: how many items, the page size and the pages. */
import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS } from '@exame/shared';

export function PaginationFooter({
  total,
  totalCapped = false,
  totalEstimated = false,
  page,
  pageSize,
  noun,
  onPage,
  onPageSize,
}: {
  total: number;
  /** The server stopped counting at `total`: there are more ("mais de 10.000 exames"). */
  totalCapped?: boolean;
  /** `total` is the server's estimate ("cerca de 35.000 exames"). */
  totalEstimated?: boolean;
  page: number;
  pageSize: number;
  /** Singular and plural, e.g. ['exame', 'exames']. */
  noun: readonly [string, string];
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}) {
  if (total === 0) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {totalCapped ? 'mais de ' : totalEstimated ? 'cerca de ' : ''}
        {total.toLocaleString('pt-BR')}{' '}
        {total === 1 && !totalCapped && !totalEstimated ? noun[0] : noun[1]}
      </Text>
      <Group gap="sm">
        <Select
          aria-label="Itens por página"
          data={PAGE_SIZE_OPTIONS.map((size) => ({
            value: String(size),
            label: `${size} por página`,
          }))}
          value={String(pageSize)}
          onChange={(value) => onPageSize(Number(value ?? pageSize))}
          w={150}
          allowDeselect={false}
        />
        <Pagination
          total={Math.max(1, Math.ceil(total / pageSize))}
          value={page}
          onChange={onPage}
          aria-label="Páginas"
        />
      </Group>
    </Group>
  );
}
