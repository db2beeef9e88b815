/** The card screens' labels in English (the reference: every key of the area is here). */
export const cardMessages = {} as const;
