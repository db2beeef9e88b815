/** The setup screens' labels in English (the reference: every key of the area is here). */
export const setupMessages = {} as const;
