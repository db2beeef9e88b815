/**
 * What the settings of a listener the desktop shell runs (the local API, workshop mode) do alike:
 * each command answers the listener's new state, or why it failed (a port in use, an address
 * this computer does not have); the state goes into the query cache, the failure on screen, and
 * while the shell opens or closes the port the switch shows what was asked for.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/client.js';

/** A listener command's answer: done, or failed with a problem; the listener's state either way. */
export type ListenerOutcome<State, Problem> = { status: 'done'; state: State } | { status: 'failed'; state: State; problem: Problem };

export function useListenerSwitch<State, Problem, Outcome extends ListenerOutcome<State, Problem>>(options: {
  stateKey: readonly string[];
  /** The switch's own command: on or off. */
  change(request: { enabled: boolean }): Promise<Outcome>;
  problemText(problem: Problem): string;
  /** What else a command's answer shows, when it is done (a key shown once). */
  onDone?(outcome: Extract<Outcome, { status: 'done' }>): void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [switching, setSwitching] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function run(command: () => Promise<Outcome>) {
    setBusy(true);
    setFailure(null);
    try {
      const outcome = await command();
      queryClient.setQueryData<State>(options.stateKey, outcome.state);
      if (outcome.status === 'failed') setFailure(options.problemText(outcome.problem));
      // Not failed, so done: the union has no third kind.
      else options.onDone?.(outcome as Extract<Outcome, { status: 'done' }>);
    } catch (error) {
      setFailure(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  async function flip(enabled: boolean) {
    setSwitching(enabled);
    try {
      await run(() => options.change({ enabled }));
    } finally {
      setSwitching(null);
    }
  }

  return { busy, switching, failure, run, flip };
}
