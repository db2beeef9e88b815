/**
 * The backup file format lives in the store (electron/store/backup/backup-file.ts), so the
 * browser host's recovery page can restore a backup too (electron/host may not import main).
 * Re-exported here for the menu commands beside it.
 */
export * from '../../store/backup/backup-file.js';
