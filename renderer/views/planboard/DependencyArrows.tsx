/**
 * Arrows between dependent cards (dependency-arrows.ts), when the toolbar's Arrows toggle is
 * on: one SVG over the grid, with a path per dependency whose two cards are rendered. A late
 * dependency is red. The links are worked out once per layout and relations read; a scroll
 * only picks the rendered ones.
 */
import { useQuery } from '@tanstack/react-query';
import { memo, useMemo } from 'react';
import { send } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import '../../styles/plan-reading.css';
import { useArrows } from './arrows-state.js';
import type { BoardLayout, PlacedCard } from './board-layout.js';
import { arrowPath, arrowsBetween, dependencyLinks, type ChainStage, type RelationLink } from './dependency-arrows.js';
import { cardTitle } from './plan-card.js';

interface DependencyArrowsProps {
  boardId: string;
  layout: BoardLayout;
  stages: readonly ChainStage[];
  visible: readonly PlacedCard[];
  width: number;
  cardHeight: number;
}

export function DependencyArrows(props: DependencyArrowsProps) {
  const shown = useArrows((state) => state.shown);
  return shown ? <ArrowLayer {...props} /> : null;
}

const ArrowLayer = memo(function ArrowLayer({ boardId, layout, stages, visible, width, cardHeight }: DependencyArrowsProps) {
  const t = useT();
  const { transport } = useApi();
  const relations = useQuery({
    queryKey: ['card_relation', 'board', boardId],
    queryFn: () =>
      send<{ data: RelationLink[] }>(transport, {
        method: 'GET',
        path: '/v1/card_relation',
        query: { filter: `card.board_id:eq:'${boardId}'`, limit: '1000' },
      }),
  });
  const relationList = relations.data?.data;
  const links = useMemo(() => dependencyLinks(layout.byId.values(), stages, relationList ?? []), [layout, stages, relationList]);
  const arrows = useMemo(() => arrowsBetween(links, new Set(visible.map((p) => p.card.id)), cardHeight), [links, visible, cardHeight]);
  const names = useMemo(() => new Map(visible.map((p) => [p.card.id, cardTitle(p.card, t)])), [visible, t]);
  return (
    <svg className="pb-arrows" width={width} height={layout.height} aria-hidden="true">
      <defs>
        <marker id="pb-arrow-head" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 8 4 L 0 8 z" className="pb-arrows__head" />
        </marker>
        <marker id="pb-arrow-head-late" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 8 4 L 0 8 z" className="pb-arrows__head pb-arrows__head--late" />
        </marker>
      </defs>
      {arrows.map((arrow) => {
        const from = names.get(arrow.from) ?? '';
        const to = names.get(arrow.to) ?? '';
        return (
          <path
            key={arrow.id}
            className={`pb-arrow pb-arrow--${arrow.kind}${arrow.late ? ' pb-arrow--late' : ''}`}
            data-from={arrow.from}
            data-to={arrow.to}
            data-late={arrow.late ? 'true' : 'false'}
            d={arrowPath(arrow)}
            markerEnd={`url(#${arrow.late ? 'pb-arrow-head-late' : 'pb-arrow-head'})`}
          >
            <title>{arrow.late ? t('arrows.late', { from, to }) : t('arrows.next', { from, to })}</title>
          </path>
        );
      })}
    </svg>
  );
});
