/**
 * Why a listener of the desktop shell (the local API, workshop mode) did not open its port.
 * `message` says it in English for logs and scripts; the settings page words the known reasons
 * itself, in the planner's language.
 */
export interface ListenerProblem {
  reason: 'port-in-use' | 'port-not-allowed' | 'address-not-available' | 'other';
  port: number;
  message: string;
}
