/** A QR code as an SVG (shared/qr-code.ts): dark modules on a light square with its quiet zone, in any theme. */
import { useMemo } from 'react';
import { qrCode, qrPath } from '../../../shared/qr-code.js';

export function QrCode({ text, label }: { text: string; label: string }) {
  const { path, side } = useMemo(() => {
    const code = qrCode(text);
    return { path: qrPath(code), side: code.size + 8 };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${side} ${side}`} shapeRendering="crispEdges">
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
