import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SimilarityBadge } from './similarity-badge';

describe('SimilarityBadge', () => {
  it('says each level in words, with its own icon and colour, never by colour alone', () => {
    const seen = new Map<string, string>();
    for (const [level, text] of [
      ['alta', 'Similaridade alta'],
      ['média', 'Similaridade média'],
      ['baixa', 'Similaridade baixa'],
    ] as const) {
      const { unmount } = renderWithProviders(<SimilarityBadge level={level} />);
      const badge = screen.getByTestId('similarity-badge');
      expect(badge).toHaveAttribute('data-level', level);
      expect(badge).toHaveTextContent(new RegExp(`^${text}$`));
      // The hint says what the level means, for a pointer or a screen reader.
      expect(screen.getByText(text).closest('[title]')).toHaveAttribute(
        'title',
        expect.stringMatching(new RegExp(`^${text}: `)),
      );
      const colour = getComputedStyle(badge.firstElementChild!).getPropertyValue('--badge-bg');
      seen.set(level, colour);
      unmount();
    }
    // Three different colours (green, yellow, red).
    expect(new Set(seen.values()).size).toBe(3);
  });

  it('shows the numbers only when given (ADMIN), in pt-BR', () => {
    const { unmount } = renderWithProviders(<SimilarityBadge level="média" />);
    expect(screen.queryByTestId('similarity-scores')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<SimilarityBadge level="média" distance={0.6612} threshold={0.69} />);
    expect(screen.getByTestId('similarity-scores')).toHaveTextContent(
      'Distância 0,66 (limite 0,69)',
    );
  });
});
