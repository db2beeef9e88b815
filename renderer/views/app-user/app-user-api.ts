/**
 * Who the app's user is (docs/API.md "The app's user"): read and chosen through
 * `/v1/app_user`, which the desktop app and the browser host serve to their own page. Query
 * keys sit under `user`, so a change to any user (a name, a role arriving by sync) reads it
 * again; choosing another user also refreshes the time screens, which show that user's time.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/provider.js';
import { plannerRoles, type User } from '../../../shared/resources/user.js';
import { sendRequest } from '../../api/client.js';

export interface AppUser {
  /** The app's user, or null when none is chosen yet. */
  user_id: string | null;
  /** The account the app is signed in to its remote with: it is the user, and cannot be chosen here. */
  signed_in: boolean;
  /** The user's record; null while a signed-in user's record is still on its way by sync. */
  user: User | null;
}

/** Either an existing user or a new one, as `PUT /v1/app_user` takes it. */
export type AppUserChoice = { user_id: string | null } | { user: NewAppUser };

export interface NewAppUser {
  firstname: string;
  lastname?: string;
  email: string;
  resource_id?: string;
}

export const appUserKey = ['user', 'app_user'] as const;

export function useAppUser() {
  const { transport } = useApi();
  return useQuery({
    queryKey: appUserKey,
    queryFn: async () => (await sendRequest(transport, { method: 'GET', path: '/v1/app_user' })).body as AppUser,
  });
}

export function useChooseAppUser() {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (choice: AppUserChoice) =>
      (await sendRequest(transport, { method: 'PUT', path: '/v1/app_user', body: choice })).body as AppUser,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['user'] }), queryClient.invalidateQueries({ queryKey: ['time_tracking'] })]),
  });
}

/**
 * Whether the app's user books for others and approves: an admin, manager or organiser. With
 * no user chosen, the app acts with its own key, which may (as before there were users).
 */
export function booksForOthers(appUser: AppUser | undefined): boolean {
  if (!appUser?.user) return appUser !== undefined && appUser.user_id === null;
  return (plannerRoles as readonly string[]).includes(appUser.user.role);
}

/** "Anna de Vries", else the e-mail. */
export function userName(user: Pick<User, 'fullname' | 'email'> | null | undefined): string {
  return user ? user.fullname || user.email : '';
}
