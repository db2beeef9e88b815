import type { Migration } from '../../database.js';
import { environments } from './0001-environments.js';
import { oauth } from './0002-oauth.js';
import { apiKeyDigests } from './0003-api-key-digests.js';

/** Migrations of the system database (`system.sqlite`), in order. */
export const systemMigrations: readonly Migration[] = [environments, oauth, apiKeyDigests];
