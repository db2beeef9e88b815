/**
 * The contract between the local API and the sync client (electron/sync), which the host hands
 * to the API. Credentials go in through `updateSettings` and never come back
 * out: `settings()` tells only whether some are stored.
 */
export interface SyncStatus {
  configured: boolean;
  remote_url: string | null;
  online: boolean;
  syncing: boolean;
  last_push_at: string | null;
  last_pull_at: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

export interface SyncRunSummary {
  pushed: number;
  rejected: number;
  pulled: number;
  /** Attachment files sent to the remote and fetched from it. */
  files_sent: number;
  files_fetched: number;
  resynced: boolean;
  duration_ms: number;
  error: string | null;
}

export interface SyncSettings {
  remote_url: string | null;
  api_env: string | null;
  auth: 'api-key' | 'oauth' | null;
  has_credentials: boolean;
}

export interface SyncSettingsInput {
  remote_url: string | null;
  api_env?: string;
  api_key?: string;
  /** An OAuth access/refresh pair from the sign-in flow, kept by the host. */
  access_token?: string;
  refresh_token?: string;
}

export interface SyncControl {
  /** The environment this client syncs; other environments have no sync. */
  environmentId: string;
  status(): SyncStatus;
  run(): Promise<SyncRunSummary>;
  settings(): SyncSettings;
  updateSettings(input: SyncSettingsInput): Promise<SyncSettings>;
}
