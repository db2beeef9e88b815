/**
 * How the API's named board colours look on screen. Boards, statuses and labels pick from the
 * same names (`shared/resources/board.ts`); the planboard draws status colours and label chips
 * with these too. Their names on screen are labels (`common.color.<name>` in renderer/i18n).
 */
import { boardColors } from '../../shared/resources/board.js';

export type BoardColor = (typeof boardColors)[number];

export { boardColors };

export const boardColorHex: Readonly<Record<BoardColor, string>> = {
  blue: '#2f6fdb',
  brown: '#8d6748',
  bubblegum: '#f28dc2',
  charcoal: '#3b4350',
  green: '#3a9d5d',
  grey: '#8a94a3',
  indigo: '#4b4fc4',
  lavender: '#b39ddb',
  navy: '#1f3a68',
  olive: '#7d8b3a',
  orange: '#ec8a2f',
  pink: '#e86aa6',
  purple: '#8645c2',
  raspberry: '#c2185b',
  red: '#d64541',
  ruby: '#9b1b30',
  skyblue: '#5bb5e8',
  teal: '#2a9d8f',
  transparent: 'transparent',
  yellow: '#e9c53b',
};
