/**
 * Move up, move down and remove for one row of an ordered list (stages, statuses, labels).
 * The buttons name the row by its place ("Move stage 2 up"), as the row's inputs do.
 */
interface RowControlsProps {
  /** What one row is, lower case: "stage". */
  noun: string;
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}

export function RowControls({ noun, index, count, onMove, onRemove }: RowControlsProps) {
  const place = `${noun} ${index + 1}`;
  return (
    <div className="row-actions">
      <button
        type="button"
        className="button button--quiet"
        aria-label={`Move ${place} up`}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        Up
      </button>
      <button
        type="button"
        className="button button--quiet"
        aria-label={`Move ${place} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        Down
      </button>
      <button type="button" className="button button--quiet" aria-label={`Remove ${place}`} onClick={onRemove}>
        Remove
      </button>
    </div>
  );
}
