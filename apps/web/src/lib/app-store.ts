/**
 * Client state of the web app (spec 3). Server data lives in TanStack Query;
 * this store holds what belongs to the browser: the signed-in user with the
 * bearer token, the selected unit and theme, the scheduling local, the page
 * title. The keys of spec 3 are persisted in local storage.
 */
import { useSyncExternalStore } from 'react';
import {
  authUserSchema,
  proctoringUserSchema,
  themeOfUnit,
  type AuthUser,
  type ProctoringUser,
  type FederativeUnit,
  type ThemeName,
} from '@exame/shared';
import { readJson, readString, STORAGE_KEYS, writeJson, writeString, removeKeys } from './storage';
import { resolveTenant, type TenantAddress } from './tenant';

/**
 * Examiner 2 once their e-mail and password were checked at the room's
 * check-in (`userProctoring`): their identity and the proof that names them
 * in the check-in, bound to examiner 1's session. It is not a session.
 */
export type ProctoringIdentity = {
  user: ProctoringUser;
  proctoringToken: string;
  expiresAt: string;
};

export type AppState = {
  user: AuthUser | null;
  userProctoring: ProctoringIdentity | null;
  /** The examiner identity of the room when it is not the signed-in user's (spec 5, 6). */
  cpfViewer: string | null;
  pageTitle: string;
  schedulingLocal: string | null;
  schedulingLocalDescription: string | null;
  federativeUnitSelected: string | null;
  theme: ThemeName;
  hiddenMenu: boolean;
  /**
   * The exam menu's state (spec 3 `stateExamMenu`): the room whose board the
   * examiner has open or opened last, so that the room's other screens
   * (the finished exams) start on it. Not persisted; cleared on logout.
   */
  stateExamMenu: { examRoomId: string; name: string } | null;
  appVersion: string;
  /**
   * The disqualification being written in the global alert modal (spec 3
   * `desclassificationSelectValue`, `vModelTextArea`): the chosen reason and
   * the free-text note. Not persisted; a new alert starts them empty.
   */
  desclassificationSelectValue: string;
  vModelTextArea: string;
  /**
   * The image alerts of the exam being audited (spec 3 `imageAlerts`): its
   * captures marked incompatible with the reference, with who marked them.
   */
  imageAlerts: ReadonlyArray<{ photoId: string; capturedAt: string; auditorName: string }>;
  /**
   * Closes the exam-notification watcher (the realtime stream of an open
   * board), if one runs: logout calls it (spec 3, 4). Not persisted.
   */
  unsubscribeDocExamNotification: (() => void) | null;
};

const isAuthUser = (value: unknown): value is AuthUser => authUserSchema.safeParse(value).success;
const isProctoringIdentity = (value: unknown): value is ProctoringIdentity => {
  const candidate = value as Partial<ProctoringIdentity> | null;
  return (
    typeof candidate?.proctoringToken === 'string' &&
    typeof candidate.expiresAt === 'string' &&
    // An expired proof names nobody any more: examiner 2 logs in again.
    Date.parse(candidate.expiresAt) > Date.now() &&
    proctoringUserSchema.safeParse(candidate.user).success
  );
};

export function initialState(
  address: string | TenantAddress = {
    hostname: window.location.hostname,
    pathname: window.location.pathname,
  },
): AppState {
  const tenant = resolveTenant(address, readString(STORAGE_KEYS.theme));
  return {
    user: readJson(STORAGE_KEYS.user, isAuthUser),
    userProctoring: readJson(STORAGE_KEYS.userProctoring, isProctoringIdentity),
    cpfViewer: readString(STORAGE_KEYS.cpfViewer),
    pageTitle: '',
    schedulingLocal: readString(STORAGE_KEYS.schedulingLocal),
    schedulingLocalDescription: readString(STORAGE_KEYS.schedulingLocalDescription),
    federativeUnitSelected: tenant.federativeUnit,
    theme: tenant.theme,
    hiddenMenu: false,
    stateExamMenu: null,
    appVersion: import.meta.env.VITE_APP_VERSION ?? '0.1.0',
    desclassificationSelectValue: '',
    vModelTextArea: '',
    imageAlerts: [],
    unsubscribeDocExamNotification: null,
  };
}

type Listener = () => void;

export function createAppStore(state: AppState = initialState()) {
  let current = state;
  const listeners = new Set<Listener>();
  const set = (patch: Partial<AppState>) => {
    current = { ...current, ...patch };
    for (const listener of listeners) listener();
  };
  /** Closes the exam-notification watcher, taken off the state first: one that clears the slot as it closes finds it empty. */
  const closeWatcher = () => {
    const unsubscribe = current.unsubscribeDocExamNotification;
    current = { ...current, unsubscribeDocExamNotification: null };
    unsubscribe?.();
  };
  return {
    getState: () => current,
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setPageTitle: (pageTitle: string) => {
      if (current.pageTitle !== pageTitle) set({ pageTitle });
    },
    setUser: (user: AuthUser | null) => {
      if (user) writeJson(STORAGE_KEYS.user, user);
      else removeKeys(STORAGE_KEYS.user);
      set({ user });
    },
    setUserProctoring: (userProctoring: ProctoringIdentity | null) => {
      if (userProctoring) writeJson(STORAGE_KEYS.userProctoring, userProctoring);
      else removeKeys(STORAGE_KEYS.userProctoring);
      set({ userProctoring });
    },
    setCpfViewer: (cpfViewer: string | null) => {
      if (cpfViewer) writeString(STORAGE_KEYS.cpfViewer, cpfViewer);
      else removeKeys(STORAGE_KEYS.cpfViewer);
      set({ cpfViewer });
    },
    setSchedulingLocal: (schedulingLocal: string | null, description: string | null) => {
      if (schedulingLocal) writeString(STORAGE_KEYS.schedulingLocal, schedulingLocal);
      else removeKeys(STORAGE_KEYS.schedulingLocal);
      if (description) writeString(STORAGE_KEYS.schedulingLocalDescription, description);
      else removeKeys(STORAGE_KEYS.schedulingLocalDescription);
      set({ schedulingLocal, schedulingLocalDescription: description });
    },
    setTheme: (theme: ThemeName) => {
      writeString(STORAGE_KEYS.theme, theme);
      set({ theme });
    },
    /** Spec 4: selecting a unit sets the theme to the unit's theme (or the default) and persists it. */
    selectFederativeUnit: (unit: FederativeUnit) => {
      const theme = themeOfUnit(unit);
      writeString(STORAGE_KEYS.theme, theme);
      set({ federativeUnitSelected: unit.uf, theme });
    },
    setHiddenMenu: (hiddenMenu: boolean) => set({ hiddenMenu }),
    setDesclassificationSelectValue: (desclassificationSelectValue: string) =>
      set({ desclassificationSelectValue }),
    setVModelTextArea: (vModelTextArea: string) => set({ vModelTextArea }),
    setImageAlerts: (imageAlerts: AppState['imageAlerts']) => {
      const previous = current.imageAlerts;
      const same =
        previous.length === imageAlerts.length &&
        previous.every(
          (alert, index) =>
            alert.photoId === imageAlerts[index]?.photoId &&
            alert.auditorName === imageAlerts[index]?.auditorName,
        );
      if (!same) set({ imageAlerts });
    },
    setStateExamMenu: (stateExamMenu: AppState['stateExamMenu']) => {
      const previous = current.stateExamMenu;
      if (
        previous?.examRoomId === stateExamMenu?.examRoomId &&
        previous?.name === stateExamMenu?.name
      ) {
        return;
      }
      set({ stateExamMenu });
    },
    /** Keeps the exam-notification watcher's close function; one watcher at a time, a previous one is closed. */
    setUnsubscribeDocExamNotification: (unsubscribe: (() => void) | null) => {
      const previous = current.unsubscribeDocExamNotification;
      if (previous === unsubscribe) return;
      if (previous && unsubscribe) previous();
      set({ unsubscribeDocExamNotification: unsubscribe });
    },
    /**
     * Starts over from what storage and the address hold now, as a newly
     * loaded page would (the exam-notification watcher closed).
     */
    reload: () => {
      closeWatcher();
      set(initialState());
    },
    /**
     * Clears the user, the proctoring user and the saved keys of the session,
     * and unsubscribes the exam-notification watcher (spec 4).
     */
    clearSession: () => {
      closeWatcher();
      removeKeys(
        STORAGE_KEYS.user,
        STORAGE_KEYS.userProctoring,
        STORAGE_KEYS.sessionFireBase,
        STORAGE_KEYS.schedulingLocal,
        STORAGE_KEYS.schedulingLocalDescription,
        STORAGE_KEYS.auditorCpf,
        STORAGE_KEYS.schedulingId,
        STORAGE_KEYS.cpfViewer,
      );
      set({
        user: null,
        userProctoring: null,
        cpfViewer: null,
        schedulingLocal: null,
        schedulingLocalDescription: null,
        stateExamMenu: null,
        desclassificationSelectValue: '',
        vModelTextArea: '',
        imageAlerts: [],
      });
    },
  };
}

export type AppStore = ReturnType<typeof createAppStore>;

export const appStore = createAppStore();

export function useAppState<T>(select: (state: AppState) => T, store: AppStore = appStore): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
