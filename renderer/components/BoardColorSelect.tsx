/** A choice of one of the board colours, with a swatch of the chosen one beside it. */
import type { ControlProps } from './Field.js';
import { boardColorHex, boardColors, colorName, type BoardColor } from './board-colors.js';

interface BoardColorSelectProps extends ControlProps {
  value: BoardColor;
  onChange: (color: BoardColor) => void;
}

export function BoardColorSelect({ value, onChange, ...control }: BoardColorSelectProps) {
  return (
    <span className="color-select">
      <span className="swatch" style={{ background: boardColorHex[value] }} aria-hidden="true" />
      <select {...control} value={value} onChange={(event) => onChange(event.target.value as BoardColor)}>
        {boardColors.map((color) => (
          <option key={color} value={color}>
            {colorName(color)}
          </option>
        ))}
      </select>
    </span>
  );
}
