/** The planboard screens' labels in English (the reference: every key of the area is here). */
export const planboardMessages = {} as const;
