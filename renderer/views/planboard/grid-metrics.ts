/** The grid's fixed sizes in pixels, shared by its layout, its CSS variables and its hit tests. */

/** The stage names column on the left. */
export const stageColumnWidth = 176;
/** The two date bands on top. */
export const headerHeight = 48;
export const laneHeight = 44;
/** A card is a lane minus a gap. */
export const cardHeight = 40;
export const capacityHeight = 20;
export const rowPadding = 6;
