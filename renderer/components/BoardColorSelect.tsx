/** A choice of one of the board colours, with a swatch of the chosen one beside it. */
import { useT } from '../i18n/index.js';
import type { ControlProps } from './Field.js';
import { boardColorHex, boardColors, type BoardColor } from './board-colors.js';

interface BoardColorSelectProps extends ControlProps {
  value: BoardColor;
  onChange: (color: BoardColor) => void;
}

export function BoardColorSelect({ value, onChange, ...control }: BoardColorSelectProps) {
  const t = useT();
  return (
    <span className="color-select">
      <span className="swatch" style={{ background: boardColorHex[value] }} aria-hidden="true" />
      <select {...control} value={value} onChange={(event) => onChange(event.target.value as BoardColor)}>
        {boardColors.map((color) => (
          <option key={color} value={color}>
            {t(`common.color.${color}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
