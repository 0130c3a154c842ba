/** How an event entered or left a saved search's feed. */
export const feedChanges = ['added', 'updated', 'removed'] as const;
export type FeedChange = (typeof feedChanges)[number];

/** How long a feed cursor stays valid, counted from the change it points after. */
export const feedCursorLifetimeDays = 30;

/** How long changes are kept: the cursor's lifetime and a day's margin for long transactions. */
export const feedRetentionDays = feedCursorLifetimeDays + 1;
